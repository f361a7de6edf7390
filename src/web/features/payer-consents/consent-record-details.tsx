import { useState } from 'react';
import { dataSharingTermText } from '../../../domain/consent-record';
import type { TConsentRecordResponse } from '../../../domain/schemas/consent-record';
import type { TPayerConsent } from '../../../domain/schemas/payer-consents';
import { useConsentRecordQuery } from '../../api/payer-consents';
import { Button } from '../../ui/button';
import { formatDateTime } from '../../ui/format-date';

const CHANNEL_WORDS = {
  standalone: 'On its own page',
  embedded: 'On the merchant’s page',
} as const;
const AUTHENTICATION_WORDS = {
  passkey: 'Your passkey',
  none: 'Your payment (no sign-in needed)',
} as const;

/** The record and its audit as read (docs/payer-consents.md "The record"). */
function RecordBody({ record, audit }: Omit<TConsentRecordResponse, 'success'>) {
  return (
    <>
      {record ? (
        <dl className="payer-consent-facts record-facts">
          <dt>What you were shown</dt>
          <dd>
            <pre className="record-text">{record.text}</pre>
          </dd>
          <dt>Text version</dt>
          <dd>{record.textVersion}</dd>
          <dt>SHA-256</dt>
          <dd className="record-hash">{record.textHash}</dd>
          <dt>Shown</dt>
          <dd>{record.channel ? CHANNEL_WORDS[record.channel] : 'Not recorded'}</dd>
          <dt>Approved with</dt>
          <dd>{AUTHENTICATION_WORDS[record.authentication]}</dd>
        </dl>
      ) : (
        <p className="muted">This consent was granted before records were kept.</p>
      )}
      <h3 className="section-title">History</h3>
      <ol className="list record-audit">
        {audit.map((entry) => (
          <li key={entry.id}>
            <span>{entry.label}</span>
            <span className="secondary-text">{formatDateTime(entry.at)}</span>
          </li>
        ))}
      </ol>
    </>
  );
}

/** The signed-in payer's record, read when they open it. */
function RecordRead({ consentId }: { consentId: string }) {
  const query = useConsentRecordQuery(consentId, true);
  if (query.isPending) return <p role="status">Loading the record...</p>;
  if (query.isError) {
    return (
      <p className="form-error" role="alert">
        The record could not be loaded. {query.error.message}
      </p>
    );
  }
  return <RecordBody record={query.data.record} audit={query.data.audit} />;
}

/**
 * 'Record of this consent': what the payer was shown and how they approved it, and its history.
 * `given`: the record already read (the SMS receipt's page); otherwise it is read when opened.
 */
export function ConsentRecordDisclosure({
  consentId,
  given,
}: {
  consentId: string;
  given?: Omit<TConsentRecordResponse, 'success'> | undefined;
}) {
  const [open, setOpen] = useState(false);
  return (
    <details
      className="consent-record"
      onToggle={(event) => setOpen((event.target as HTMLDetailsElement).open)}
    >
      <summary>Record of this consent</summary>
      {open ? given ? <RecordBody {...given} /> : <RecordRead consentId={consentId} /> : null}
    </details>
  );
}

/**
 * Data sharing's term (12 months unless confirmed again), and 'Confirm data sharing' while it
 * runs; `confirm` resolves once the server moved it on, rejects with what the payer reads.
 */
export function DataSharingTerm({
  consent,
  confirm,
}: {
  consent: TPayerConsent;
  confirm?: ((consent: TPayerConsent) => Promise<void>) | undefined;
}) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const text = dataSharingTermText({
    expiresAt: consent.dataSharingExpiresAt,
    endedAt: consent.dataSharingEndedAt,
  });
  if (!text || consent.status !== 'granted') return null;
  const confirmable = confirm && consent.dataSharingEndedAt === null;
  return (
    <div className="data-sharing-term">
      <p>{text}</p>
      {confirmable ? (
        <Button
          variant="secondary"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            setFailure(null);
            setConfirmed(false);
            confirm(consent)
              .then(() => setConfirmed(true))
              .catch((error: unknown) =>
                setFailure(error instanceof Error ? error.message : 'Please try again.'),
              )
              .finally(() => setBusy(false));
          }}
        >
          {busy ? 'Confirming...' : 'Confirm data sharing'}
        </Button>
      ) : null}
      {confirmed ? (
        <p className="removed-note" role="status">
          Confirmed. {consent.merchant.name} may read the data you shared for 12 more months.
        </p>
      ) : null}
      {failure ? (
        <p className="form-error" role="alert">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
