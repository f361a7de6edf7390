import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import {
  copyOpensUntil,
  erasureKept,
  exportState,
  PAYER_RIGHTS_TEXTS as T,
  payerRightsLine,
} from '../../../domain/payer-rights';
import { formatPaymentDate } from '../../../domain/payment-date';
import type {
  TErasureRequest,
  TPayerRightsListedRequest,
  TPayerRightsRequest,
} from '../../../domain/schemas/payer-rights';
import { isApiError } from '../../api/api-error';
import { payerRightsApi, payerRightsQueryKey, usePayerRightsQuery } from '../../api/payer-rights';
import { BusyOverlay } from '../../ui/busy-overlay';
import { Button } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import { KeptList } from './kept-list';
import { withPasskeyProof } from './passkey-proof';
import './payer-data-rights.css';

/*
 * 'Your data' on the payer's own page (docs/payer-rights.md): Download my data, Correct my name,
 * Erase my data, and every request with its dates (an erasure's with what it keeps, and why). A
 * copy being prepared is read again every few seconds until it is ready; its link comes by SMS.
 * Each request needs the passkey: a session signed in by an SMS code proves itself first (the
 * step-up), and an erasure is signed by the passkey as the payer confirms it. Loaded when the page
 * first draws it, apart from the consent page's first screen.
 */

const day = (iso: string) => formatPaymentDate(iso) ?? iso;

/** A ready copy's link, while it lasts, and until when: the SMS's link, here too. */
function CopyLink({ request }: { request: TPayerRightsListedRequest }) {
  if (!request.link || !request.expiresAt) return null;
  return (
    <span>
      <a href={request.link}>{T.copyLink}</a>: {copyOpensUntil(request.expiresAt, day)}.
    </span>
  );
}

function RequestList({ requests }: { requests: TPayerRightsListedRequest[] }) {
  if (requests.length === 0) return null;
  return (
    <>
      <h3>{T.requestsHeading}</h3>
      <ul className="payer-rights-requests">
        {requests.map((request) => {
          const line = payerRightsLine(request, day);
          return (
            <li key={request.requestId}>
              <span>
                <strong>{line.label}</strong>: {line.state}
              </span>
              <CopyLink request={request} />
              {request.kept ? <KeptList kept={request.kept} /> : null}
            </li>
          );
        })}
      </ul>
    </>
  );
}

function NameForm({ fullName, onSave }: { fullName: string; onSave: (name: string) => void }) {
  const id = useId();
  const [name, setName] = useState(fullName);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave(name);
  };
  return (
    <form onSubmit={submit}>
      <label htmlFor={`${id}-name`}>{T.nameLabel}</label>
      <input
        id={`${id}-name`}
        value={name}
        autoComplete="name"
        onChange={(event) => setName(event.target.value)}
      />
      <Button type="submit" variant="secondary">
        {T.saveName}
      </Button>
    </form>
  );
}

/** Why an erasure was not asked, in words for the payer. */
function erasureFailure(error: unknown): string {
  if (isApiError(error)) return error.message;
  // WebAuthn's refusal: the payer closed the prompt, or it timed out.
  if (error instanceof Error && error.name === 'NotAllowedError') return T.erasureNotApproved;
  return 'Something went wrong. Please try again.';
}

type TPayerDataRightsProps = {
  /** The passkey's signature of the erasure, asked as the payer confirms it. */
  signErasure(): Promise<TErasureRequest>;
  /** The erasure's answer on asking: what it keeps, and why, which the page keeps showing. */
  onErasureAsked(request: TPayerRightsRequest): void;
};

export function PayerDataRights({ signErasure, onErasureAsked }: TPayerDataRightsProps) {
  const id = useId();
  const query = usePayerRightsQuery();
  const client = useQueryClient();
  const [proving, setProving] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  // `done`: what the page says once asked; null where the request's own state, read again from
  // the server, says it (a copy: 'Being prepared', then 'Ready'), so no second line goes stale.
  const ask = async (call: () => Promise<unknown>, done: string | null) => {
    try {
      await withPasskeyProof(call, setProving);
      setNote(done);
    } catch (error) {
      setNote(error instanceof Error ? error.message : 'Something went wrong. Please try again.');
    }
    await client.invalidateQueries({ queryKey: payerRightsQueryKey });
  };
  const run = (call: () => Promise<unknown>, done: string | null) => {
    void ask(call, done);
  };
  const erase = async () => {
    setConfirming(false);
    setNote(null);
    try {
      setProving(true);
      let signed: TErasureRequest;
      try {
        signed = await signErasure();
      } finally {
        setProving(false);
      }
      onErasureAsked((await payerRightsApi.askErasure(signed)).request);
    } catch (error) {
      setNote(erasureFailure(error));
    }
    await client.invalidateQueries({ queryKey: payerRightsQueryKey });
  };
  const data = query.data;
  const latestCopy = data?.requests.find((request) => request.kind === 'export');
  return (
    <section className="payer-rights" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{T.heading}</h2>
      {proving ? <BusyOverlay title="Getting your biometric approval..." /> : null}
      <p className="muted">{T.intro}</p>
      <h3>{T.download}</h3>
      {latestCopy ? (
        <p className="payer-rights-copy" role="status">
          {exportState(latestCopy, new Date(), day)}
        </p>
      ) : null}
      <Button variant="secondary" onClick={() => run(payerRightsApi.askExport, null)}>
        {T.download}
      </Button>
      {data ? (
        <>
          <h3>{T.correctName}</h3>
          {data.name.correctable ? (
            <NameForm
              fullName={data.name.fullName}
              onSave={(name) => run(() => payerRightsApi.correctName(name), 'Your name is saved.')}
            />
          ) : (
            <p>{data.name.whyNot}</p>
          )}
        </>
      ) : null}
      <h3>{T.erase}</h3>
      {confirming ? (
        <div className="payer-rights-confirm" role="group" aria-label={T.erase}>
          <p>{T.eraseConfirm}</p>
          <h4>{T.keptHeading}</h4>
          <KeptList kept={erasureKept()} />
          <p className="muted">{T.erasePasskey}</p>
          <div className="payer-rights-actions">
            <Button variant="primary" onClick={() => void erase()}>
              {T.eraseConfirmButton}
            </Button>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <Button variant="secondary" onClick={() => setConfirming(true)}>
          {T.erase}
        </Button>
      )}
      {note ? <p role="status">{note}</p> : null}
      {query.isPending ? (
        <p className="loading-line" role="status">
          <Spinner /> {T.loading}
        </p>
      ) : null}
      {query.isError ? (
        <p className="form-error" role="alert">
          {T.failed} {query.error.message}
        </p>
      ) : null}
      {data ? <RequestList requests={data.requests} /> : null}
    </section>
  );
}
