import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { providerRoles } from '../../domain/capabilities';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import { ZDashboardOk, ZKeyRotateResponse } from '../../domain/schemas/dashboard';
import type { TCapabilityLineOut } from '../../domain/schemas/health';
import { Button } from '../ui/button';
import { FormError } from '../ui/form-error';
import { formatDateTime } from '../ui/format-date';
import { dashboardCall, messageOf } from './api';
import { DeadLetters } from './dead-letters';
import { dashboardKeys, dashboardQueries } from './queries';
import { Screen } from './screen';
import { WebhooksPanel } from './webhooks-panel';

/** API keys, webhooks and their deliveries (with their dead letters), the request log. */
export function DevelopersPage() {
  return (
    <Screen title={DASHBOARD_TEXTS.developersTitle} wide>
      <Keys />
      <WebhooksPanel />
      <Deliveries />
      <DeadLetters />
      <Requests />
      <Capabilities />
    </Screen>
  );
}

/**
 * Who serves a capability and who stands by. The standing-by clause wraps as one piece on a
 * narrow screen, never leaving "standing by:" at a line's end apart from its names.
 */
function Providers({ line }: { line: TCapabilityLineOut }) {
  if (line.state === 'off') return DASHBOARD_TEXTS.capabilityOff;
  const { serving, standingBy } = providerRoles(line.capability, line.providers);
  return (
    <>
      {serving.join(', ')}
      {standingBy.length > 0 ? (
        <>
          {' · '}
          <span className="dash-standby">
            {DASHBOARD_TEXTS.standingBy} {standingBy.join(', ')}
          </span>
        </>
      ) : null}
    </>
  );
}

/** Each capability and what serves it, or off and why (docs/going-live.md). */
function Capabilities() {
  const read = useQuery(dashboardQueries.capabilities());
  return (
    <section className="dash-card" aria-labelledby="capabilities-title">
      <h2 id="capabilities-title">{DASHBOARD_TEXTS.capabilitiesTitle}</h2>
      <p className="dash-muted">{DASHBOARD_TEXTS.capabilitiesHint}</p>
      <FormError message={read.error ? messageOf(read.error) : null} />
      <dl className="dash-facts">
        {read.data?.capabilities.map((line) => (
          <div key={line.capability} className="dash-contents">
            <dt>
              <code>{line.capability}</code>
            </dt>
            <dd>
              <Providers line={line} />
              {line.note ? ` · ${line.note}` : ''}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Keys() {
  const keys = useQuery(dashboardQueries.keys());
  const [grace, setGrace] = useState('24');
  const rotate = useMutation({
    mutationFn: (clientId: string) =>
      dashboardCall(`/keys/${encodeURIComponent(clientId)}/rotate`, ZKeyRotateResponse, {
        method: 'POST',
        body: { graceHours: Number(grace) },
      }),
    onSuccess: () => void keys.refetch(),
  });
  return (
    <section className="dash-card" aria-labelledby="keys-title">
      <h2 id="keys-title">{DASHBOARD_TEXTS.keysTitle}</h2>
      <FormError message={keys.error ? messageOf(keys.error) : null} />
      <label className="dash-field">
        {DASHBOARD_TEXTS.graceLabel}
        <input inputMode="numeric" value={grace} onChange={(e) => setGrace(e.target.value)} />
      </label>
      <ul className="dash-list">
        {keys.data?.keys.map((key) => (
          <li key={key.clientId} className="dash-row">
            <code>{key.clientId}</code>
            <span className="dash-muted">
              Origins: {key.allowedOrigins.join(', ') || 'none'}
              {key.previousSecretValidUntil
                ? ` · old secret works until ${formatDateTime(key.previousSecretValidUntil)}`
                : ''}
            </span>
            <Button variant="secondary" onClick={() => rotate.mutate(key.clientId)}>
              {DASHBOARD_TEXTS.rotateKey}
            </Button>
          </li>
        ))}
      </ul>
      {rotate.data && (
        <p role="status">
          {DASHBOARD_TEXTS.newSecret} <code>{rotate.data.secret}</code>
        </p>
      )}
      <FormError message={rotate.error ? messageOf(rotate.error) : null} />
    </section>
  );
}

function Deliveries() {
  const queryClient = useQueryClient();
  const deliveries = useQuery(dashboardQueries.deliveries());
  const resend = useMutation({
    mutationFn: (id: number) =>
      dashboardCall(`/webhooks/deliveries/${id}/resend`, ZDashboardOk, { method: 'POST' }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: dashboardKeys.deliveries }),
  });
  const list = deliveries.data?.deliveries ?? [];
  return (
    <section className="dash-card" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">{DASHBOARD_TEXTS.deliveriesTitle}</h2>
      <FormError message={deliveries.error ? messageOf(deliveries.error) : null} />
      {deliveries.isSuccess && list.length === 0 && <p>{DASHBOARD_TEXTS.noDeliveries}</p>}
      <ul className="dash-list">
        {list.map((d) => (
          <li key={d.id} className="dash-row">
            <span>
              <strong>{d.eventType}</strong>{' '}
              <span className={`dash-status ${d.status}`}>{d.status}</span>
            </span>
            <span className="dash-muted dash-break">
              {d.url} · {d.attempts} {d.attempts === 1 ? 'try' : 'tries'}
              {d.lastStatus === null ? '' : ` · answered ${d.lastStatus}`}
              {d.lastError ? ` · ${d.lastError}` : ''} ·{' '}
              {formatDateTime(d.deliveredAt ?? d.createdAt)}
            </span>
            <details>
              <summary>{DASHBOARD_TEXTS.requestTitle}</summary>
              <pre className="dash-pre">{JSON.stringify(JSON.parse(d.request), null, 2)}</pre>
            </details>
            {d.lastBody !== null && (
              <details>
                <summary>{DASHBOARD_TEXTS.answerTitle(d.lastStatus)}</summary>
                <pre className="dash-pre">{d.lastBody || DASHBOARD_TEXTS.emptyAnswer}</pre>
              </details>
            )}
            <Button
              variant="secondary"
              aria-label={`${DASHBOARD_TEXTS.resend} ${d.eventType} ${d.eventId}`}
              onClick={() => resend.mutate(d.id)}
            >
              {DASHBOARD_TEXTS.resend}
            </Button>
          </li>
        ))}
      </ul>
      {resend.isSuccess && <p role="status">{DASHBOARD_TEXTS.resent}</p>}
      <FormError message={resend.error ? messageOf(resend.error) : null} />
    </section>
  );
}

function Requests() {
  const requests = useQuery(dashboardQueries.requests());
  const list = requests.data?.requests ?? [];
  return (
    <section className="dash-card" aria-labelledby="requests-title">
      <h2 id="requests-title">{DASHBOARD_TEXTS.requestsTitle}</h2>
      <FormError message={requests.error ? messageOf(requests.error) : null} />
      {requests.isSuccess && list.length === 0 && <p>{DASHBOARD_TEXTS.noRequests}</p>}
      <ul className="dash-list">
        {list.map((r) => (
          <li key={r.requestId + r.at} className="dash-row">
            <span>
              <code>
                {r.method} {r.path}
              </code>{' '}
              {r.status}
            </span>
            <span className="dash-muted dash-break">
              {formatDateTime(r.at)} · request {r.requestId}
              {r.idempotencyKey ? ` · Idempotency-Key ${r.idempotencyKey}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
