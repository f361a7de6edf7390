import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import { formatNaira } from '../../domain/money';
import {
  ZSandboxToolChallengeResponse,
  ZSandboxToolEventResponse,
  ZSandboxToolTransferResponse,
  type TSandboxWaitingPayment,
} from '../../domain/schemas/dashboard-sandbox';
import { WEBHOOK_EVENT_TYPES, type TWebhookEventType } from '../../domain/schemas/webhooks';
import { Button } from '../ui/button';
import { FormError } from '../ui/form-error';
import { dashboardCall, messageOf } from './api';
import { useKeyedMutation } from './keyed-mutation';
import { dashboardKeys, dashboardQueries } from './queries';
import { Screen } from './screen';

/**
 * Sandbox tools (docs/dashboard.md "Sandbox tools"): a transfer to one of the merchant's payments,
 * an answer to a card's 3-D Secure check, a test webhook event. Only on a sandbox server.
 */
export function SandboxPage() {
  const tools = useQuery(dashboardQueries.sandbox());
  return (
    <Screen title={DASHBOARD_TEXTS.sandboxTitle} wide>
      <p className="dash-muted">{DASHBOARD_TEXTS.sandboxLead}</p>
      <div className="dash-actions">
        <Button
          variant="secondary"
          disabled={tools.isFetching}
          onClick={() => void tools.refetch()}
        >
          {tools.isFetching ? DASHBOARD_TEXTS.loading : DASHBOARD_TEXTS.refresh}
        </Button>
      </div>
      <FormError message={tools.error ? messageOf(tools.error) : null} />
      <div className="dash-columns dash-tools">
        <TransferForm waiting={tools.data?.transfers} />
        <ChallengeForm waiting={tools.data?.challenges} />
        <EventForm activeWebhooks={tools.data?.activeWebhooks} />
      </div>
    </Screen>
  );
}

/**
 * A tool's call: keyed per request (keyed-mutation.ts); a success refreshes what it changed, the
 * deliveries of the events it made among them.
 */
const useTool = <V, T>(call: (asked: V, key: string) => Promise<T>) =>
  useKeyedMutation(call, [
    dashboardKeys.sandbox,
    dashboardKeys.payments,
    dashboardKeys.payment,
    dashboardKeys.deliveries,
  ]);

/** The form of one tool: its heading, its fields, its answer announced, its failure. */
function ToolForm({
  id,
  title,
  lead,
  busy,
  onSubmit,
  result,
  error,
  children,
}: {
  id: string;
  title: string;
  lead: string;
  busy: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  result: string | null;
  error: unknown;
  children: ReactNode;
}) {
  return (
    <form className="dash-card" onSubmit={onSubmit} aria-labelledby={id} aria-busy={busy}>
      <h2 id={id}>{title}</h2>
      <p className="dash-muted">{lead}</p>
      {children}
      <p role="status" className="dash-break">
        {result}
      </p>
      <FormError message={error ? messageOf(error) : null} />
    </form>
  );
}

/** The payments a tool may act on now, each a button that picks it. */
function WaitingList({
  waiting,
  empty,
  onPick,
}: {
  waiting: TSandboxWaitingPayment[] | undefined;
  empty: string;
  onPick: (payment: string) => void;
}) {
  if (!waiting) return null;
  if (waiting.length === 0) return <p className="dash-muted">{empty}</p>;
  return (
    <ul className="dash-list">
      {waiting.map((w) => (
        <li key={w.paymentId} className="dash-row">
          <span className="dash-amount">{formatNaira(w.amount)}</span>
          <span className="dash-break">
            {w.reference ? `${w.reference} · ` : ''}
            <code>{w.paymentId}</code>
          </span>
          <span className="dash-muted">
            {w.narration} · {w.detail}
          </span>
          <Button variant="secondary" onClick={() => onPick(w.reference ?? w.paymentId)}>
            {DASHBOARD_TEXTS.pickPayment(w.reference ?? w.paymentId)}
          </Button>
        </li>
      ))}
    </ul>
  );
}

function PaymentField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <label className="dash-field">
      {DASHBOARD_TEXTS.paymentOrReferenceLabel}
      <input required maxLength={200} value={value} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}

function TransferForm({ waiting }: { waiting: TSandboxWaitingPayment[] | undefined }) {
  const [payment, setPayment] = useState('');
  const [amount, setAmount] = useState('');
  const send = useTool((body: { payment: string; amount?: number }, key) =>
    dashboardCall('/sandbox/transfers', ZSandboxToolTransferResponse, {
      method: 'POST',
      key,
      body,
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const naira = amount.replace(/,/g, '').trim();
    send.mutate({ payment, ...(naira ? { amount: Math.round(Number(naira) * 100) } : {}) });
  };
  const sent = send.data;
  return (
    <ToolForm
      id="sandbox-transfer-title"
      title={DASHBOARD_TEXTS.sandboxTransferTitle}
      lead={DASHBOARD_TEXTS.sandboxTransferLead}
      busy={send.isPending}
      onSubmit={submit}
      result={
        sent ? DASHBOARD_TEXTS.sandboxTransferSent(formatNaira(sent.amount), sent.message) : null
      }
      error={send.error}
    >
      <WaitingList
        waiting={waiting}
        empty={DASHBOARD_TEXTS.noWaitingTransfers}
        onPick={setPayment}
      />
      <PaymentField value={payment} onChange={setPayment} />
      <label className="dash-field">
        {DASHBOARD_TEXTS.sandboxTransferAmountLabel}
        <input inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
      </label>
      <Button type="submit" disabled={send.isPending}>
        {send.isPending ? DASHBOARD_TEXTS.working : DASHBOARD_TEXTS.sandboxTransferButton}
      </Button>
    </ToolForm>
  );
}

const APPROVE = 'approve';

function ChallengeForm({ waiting }: { waiting: TSandboxWaitingPayment[] | undefined }) {
  const [payment, setPayment] = useState('');
  const answer = useTool((body: { payment: string; approved: boolean }, key) =>
    dashboardCall('/sandbox/challenges', ZSandboxToolChallengeResponse, {
      method: 'POST',
      key,
      body,
    }),
  );
  // The button that sent the form is the answer; Enter in the field approves (the first button).
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const approved = !(submitter instanceof HTMLButtonElement) || submitter.value === APPROVE;
    answer.mutate({ payment, approved });
  };
  const asked = answer.isPending ? answer.variables : undefined;
  return (
    <ToolForm
      id="sandbox-challenge-title"
      title={DASHBOARD_TEXTS.sandboxChallengeTitle}
      lead={DASHBOARD_TEXTS.sandboxChallengeLead}
      busy={answer.isPending}
      onSubmit={submit}
      result={answer.data ? DASHBOARD_TEXTS.sandboxChallengeAnswered(answer.data.message) : null}
      error={answer.error}
    >
      <WaitingList
        waiting={waiting}
        empty={DASHBOARD_TEXTS.noWaitingChallenges}
        onPick={setPayment}
      />
      <PaymentField value={payment} onChange={setPayment} />
      <div className="dash-actions">
        <Button type="submit" value={APPROVE} disabled={answer.isPending}>
          {asked?.approved === true ? DASHBOARD_TEXTS.working : DASHBOARD_TEXTS.sandboxApprove}
        </Button>
        <Button type="submit" value="decline" variant="secondary" disabled={answer.isPending}>
          {asked?.approved === false ? DASHBOARD_TEXTS.working : DASHBOARD_TEXTS.sandboxDecline}
        </Button>
      </div>
    </ToolForm>
  );
}

function EventForm({ activeWebhooks }: { activeWebhooks: number | undefined }) {
  const [type, setType] = useState<TWebhookEventType>('payment.completed');
  const fire = useTool((body: { type: TWebhookEventType }, key) =>
    dashboardCall('/sandbox/events', ZSandboxToolEventResponse, { method: 'POST', key, body }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    fire.mutate({ type });
  };
  return (
    <ToolForm
      id="sandbox-event-title"
      title={DASHBOARD_TEXTS.sandboxEventTitle}
      lead={DASHBOARD_TEXTS.sandboxEventLead(activeWebhooks ?? 0)}
      busy={fire.isPending}
      onSubmit={submit}
      result={
        fire.data && fire.variables
          ? DASHBOARD_TEXTS.sandboxEventFired(
              fire.variables.type,
              fire.data.events.map((e) => e.event.id),
            )
          : null
      }
      error={fire.error}
    >
      <label className="dash-field">
        {DASHBOARD_TEXTS.sandboxEventTypeLabel}
        <select value={type} onChange={(e) => setType(e.target.value as TWebhookEventType)}>
          {WEBHOOK_EVENT_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <Button type="submit" disabled={fire.isPending}>
        {fire.isPending ? DASHBOARD_TEXTS.working : DASHBOARD_TEXTS.sandboxEventButton}
      </Button>
    </ToolForm>
  );
}
