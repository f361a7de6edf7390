import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { mayDo } from '../../domain/dashboard-roles';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import { formatNaira } from '../../domain/money';
import { dueDateLabel } from '../../domain/payment-date';
import {
  CANCEL_REASON_MAX,
  ZDashboardConsentResponse,
  type TDashboardConsent,
} from '../../domain/schemas/dashboard-consents';
import type { TDashboardSession } from '../../domain/schemas/dashboard';
import { Button } from '../ui/button';
import { FormError } from '../ui/form-error';
import { formatDateTime } from '../ui/format-date';
import { dashboardCall, messageOf } from './api';
import { dashboardKeys, dashboardQueries } from './queries';
import { Screen } from './screen';

/** A consent: its status, mandates, future payments still owed, grant record and history. */
export function ConsentPage({
  consentId,
  session,
}: {
  consentId: string;
  session: TDashboardSession;
}) {
  const detail = useQuery(dashboardQueries.consent(consentId));
  const data = detail.data;
  // Said once the cancel is done (its form then goes: nothing is left to cancel).
  const [done, setDone] = useState<string | null>(null);
  return (
    <Screen title={DASHBOARD_TEXTS.consentTitle} wide>
      <Link href="/consents">← {DASHBOARD_TEXTS.nav.consents}</Link>
      <FormError message={detail.error ? messageOf(detail.error) : null} />
      {detail.isPending && <p role="status">{DASHBOARD_TEXTS.loading}</p>}
      <p role="status">{done}</p>
      {data && (
        <div className="dash-columns">
          <Summary data={data} />
          {mayDo(session.role, 'consents.cancel') &&
            data.consent.status === 'granted' &&
            data.schedule.length > 0 && (
              <CancelForm consentId={consentId} count={data.schedule.length} onDone={setDone} />
            )}
          <Schedule data={data} />
          <Mandates data={data} />
          <Record data={data} />
        </div>
      )}
    </Screen>
  );
}

function Summary({ data }: { data: TDashboardConsent }) {
  const { consent } = data;
  return (
    <section className="dash-card" aria-labelledby="consent-summary">
      <h2 id="consent-summary">
        {consent.reference ?? consent.consentId} ·{' '}
        <span className={`dash-status ${consent.status}`}>{consent.status}</span>
      </h2>
      <dl className="dash-facts">
        <dt>Consent id</dt>
        <dd>{consent.consentId}</dd>
        <dt>Reference</dt>
        <dd>{consent.reference ?? '—'}</dd>
        <dt>Granted</dt>
        <dd>{consent.grantedAt ? formatDateTime(consent.grantedAt) : 'Not granted'}</dd>
        {consent.revokedAt && (
          <>
            <dt>Revoked</dt>
            <dd>{formatDateTime(consent.revokedAt)}</dd>
          </>
        )}
        {Object.entries(consent.metadata).map(([name, value]) => (
          <div key={name} className="dash-contents">
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Schedule({ data }: { data: TDashboardConsent }) {
  return (
    <section className="dash-card" aria-labelledby="schedule-title">
      <h2 id="schedule-title">{DASHBOARD_TEXTS.scheduleTitle}</h2>
      {data.schedule.length === 0 ? (
        <p className="dash-muted">{DASHBOARD_TEXTS.noSchedule}</p>
      ) : (
        <ol className="dash-timeline">
          {data.schedule.map((debit) => (
            <li key={debit.paymentId}>
              <span>
                <span className="dash-amount">{formatNaira(debit.amount)}</span> ·{' '}
                {dueDateLabel(debit.dueDate)}
              </span>
              <span className="dash-muted">{debit.narration}</span>
            </li>
          ))}
        </ol>
      )}
      {data.cancellations.length > 0 && (
        <>
          <h3>{DASHBOARD_TEXTS.cancellationsTitle}</h3>
          <ul className="dash-timeline">
            {data.cancellations.map((c) => (
              <li key={c.at}>
                <span>{DASHBOARD_TEXTS.cancelled(c.cancelledPaymentIds.length, c.reason)}</span>
                <span className="dash-muted">{formatDateTime(c.at)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function Mandates({ data }: { data: TDashboardConsent }) {
  const { mandates } = data.consent;
  return (
    <section className="dash-card" aria-labelledby="mandates-title">
      <h2 id="mandates-title">{DASHBOARD_TEXTS.mandatesTitle}</h2>
      {mandates.length === 0 ? (
        <p className="dash-muted">{DASHBOARD_TEXTS.noMandates}</p>
      ) : (
        <ul className="dash-timeline">
          {mandates.map((m) => (
            <li key={m.mandateId}>
              <span>
                {m.bankName} ****{m.accountNumberLast4} ·{' '}
                <span className={`dash-status ${m.status}`}>{m.status}</span>
              </span>
              <span className="dash-muted">
                {m.mandateType} · {m.mandateId}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Record({ data }: { data: TDashboardConsent }) {
  return (
    <section className="dash-card" aria-labelledby="record-title">
      <h2 id="record-title">{DASHBOARD_TEXTS.recordTitle}</h2>
      {data.record ? (
        <>
          <pre className="dash-pre">{data.record.text}</pre>
          <dl className="dash-facts">
            <dt>Text version</dt>
            <dd>{data.record.textVersion}</dd>
            <dt>SHA-256</dt>
            <dd className="dash-break">{data.record.textHash}</dd>
            <dt>Approved with</dt>
            <dd>{data.record.authentication}</dd>
          </dl>
        </>
      ) : (
        <p className="dash-muted">{DASHBOARD_TEXTS.noRecord}</p>
      )}
      <h3>{DASHBOARD_TEXTS.historyTitle}</h3>
      <ol className="dash-timeline">
        {data.audit.map((entry) => (
          <li key={entry.id}>
            <span>
              {entry.label} ({entry.actor})
            </span>
            <span className="dash-muted">{formatDateTime(entry.at)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The reason, then a confirm step: the cancel cannot be undone and the payer is told. */
function CancelForm({
  consentId,
  count,
  onDone,
}: {
  consentId: string;
  count: number;
  onDone: (said: string) => void;
}) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const cancel = useMutation({
    mutationFn: () =>
      dashboardCall(
        `/consents/${encodeURIComponent(consentId)}/cancel-future-payments`,
        ZDashboardConsentResponse,
        { method: 'POST', body: { reason } },
      ),
    onSuccess: (answer) => {
      onDone(DASHBOARD_TEXTS.cancelled(count, reason.trim()));
      queryClient.setQueryData(dashboardQueries.consent(consentId).queryKey, answer);
      void queryClient.invalidateQueries({ queryKey: dashboardKeys.consents });
    },
  });
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!confirming) setConfirming(true);
    else cancel.mutate();
  };
  return (
    <form className="dash-card" onSubmit={submit} aria-labelledby="cancel-title">
      <h2 id="cancel-title">{DASHBOARD_TEXTS.cancelTitle}</h2>
      <p className="dash-muted">{DASHBOARD_TEXTS.cancelLead(count)}</p>
      <label className="dash-field">
        {DASHBOARD_TEXTS.cancelReasonLabel}
        <input
          required
          maxLength={CANCEL_REASON_MAX}
          value={reason}
          readOnly={confirming}
          onChange={(e) => setReason(e.target.value)}
        />
      </label>
      {confirming ? (
        <div role="group" aria-labelledby="cancel-ask" className="dash-actions">
          <p id="cancel-ask">{DASHBOARD_TEXTS.cancelAsk(count)}</p>
          <Button ref={confirmRef} type="submit" disabled={cancel.isPending}>
            {cancel.isPending ? DASHBOARD_TEXTS.working : DASHBOARD_TEXTS.cancelConfirm}
          </Button>
          <Button
            type="button"
            variant="secondary"
            disabled={cancel.isPending}
            onClick={() => setConfirming(false)}
          >
            {DASHBOARD_TEXTS.cancelBack}
          </Button>
        </div>
      ) : (
        <Button type="submit" disabled={!reason.trim()}>
          {DASHBOARD_TEXTS.cancelContinue}
        </Button>
      )}
      <FormError message={cancel.error ? messageOf(cancel.error) : null} />
    </form>
  );
}
