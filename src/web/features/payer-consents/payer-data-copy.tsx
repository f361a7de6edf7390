import { useId } from 'react';
import {
  EXPORT_SECTIONS,
  exportFieldLabel,
  PAYER_RIGHTS_TEXTS as T,
} from '../../../domain/payer-rights';
import { formatPaymentDate } from '../../../domain/payment-date';
import type { TPayerExport } from '../../../domain/schemas/payer-rights';
import { usePayerExportQuery } from '../../api/payer-rights';
import { Button } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import './payer-data-rights.css';

/*
 * The printable page of the copy of the payer's data (docs/payer-rights.md "Download my data"):
 * /consents?my-data={token}, the token the SMS's link carries. It reads the same JSON the file
 * holds and lays out each of its sections for the screen and for print, with the file itself to
 * keep. Loaded only when the page is opened so.
 */

/** One value of the file as text: dates and booleans for reading, nothing left out. */
function Value({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '') return <>—</>;
  if (typeof value === 'boolean') return <>{value ? 'Yes' : 'No'}</>;
  if (Array.isArray(value)) {
    const items: unknown[] = value;
    if (items.length === 0) return <>None</>;
    if (items.every((v) => typeof v !== 'object' || v === null)) {
      return <>{items.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}</>;
    }
    return (
      <ol className="payer-copy-records">
        {items.map((v, index) => (
          <li key={index}>
            <Value value={v} />
          </li>
        ))}
      </ol>
    );
  }
  if (typeof value === 'object') return <Fields record={value as Record<string, unknown>} />;
  return <>{typeof value === 'string' ? value : JSON.stringify(value)}</>;
}

function Fields({ record }: { record: Record<string, unknown> }) {
  return (
    <dl className="payer-copy-fields">
      {Object.entries(record).map(([key, value]) => (
        <div key={key}>
          <dt>{exportFieldLabel(key)}</dt>
          <dd>
            <Value value={value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function downloadFile(fileName: string, data: TPayerExport) {
  const url = URL.createObjectURL(
    new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }),
  );
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(url);
}

export function PayerDataCopy({ token }: { token: string }) {
  const id = useId();
  const query = usePayerExportQuery(token);
  if (query.isPending) {
    return (
      <div className="payer-consents-state" role="status">
        <Spinner />
        <p>Loading your copy...</p>
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="payer-consents-state">
        <h1>{T.copyHeading}</h1>
        <p className="form-error" role="alert">
          {T.copyGone}
        </p>
        <a className="button secondary" href="/consents">
          Your consents
        </a>
      </div>
    );
  }
  const { data, fileName, expiresAt } = query.data;
  const { profile } = data;
  return (
    <article className="payer-copy" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>{T.copyHeading}</h1>
      <p className="muted">{T.copyIntro}</p>
      <p className="muted">
        Prepared {formatPaymentDate(data.preparedAt)}. This link opens it until{' '}
        {formatPaymentDate(expiresAt)}.
      </p>
      <div className="payer-rights-actions payer-copy-actions">
        <Button variant="primary" onClick={() => window.print()}>
          {T.copyPrint}
        </Button>
        <Button variant="secondary" onClick={() => downloadFile(fileName, data)}>
          {T.copyFile}
        </Button>
      </div>
      <section aria-labelledby={`${id}-profile`}>
        <h2 id={`${id}-profile`}>Profile</h2>
        <Fields
          record={{
            ...profile,
            bvn: profile.bvn ? `Ending ${profile.bvn.last4}` : null,
            bvnVerifiedAt: profile.bvn?.verifiedAt ?? null,
          }}
        />
      </section>
      {(Object.keys(EXPORT_SECTIONS) as Array<keyof typeof EXPORT_SECTIONS>).map((key) => (
        <section key={key} aria-labelledby={`${id}-${key}`}>
          <h2 id={`${id}-${key}`}>{EXPORT_SECTIONS[key]}</h2>
          <Value value={data[key]} />
        </section>
      ))}
    </article>
  );
}
