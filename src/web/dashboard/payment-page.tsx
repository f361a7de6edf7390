import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { mayDo } from '../../domain/dashboard-roles';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import { formatNaira } from '../../domain/money';
import {
  ZDashboardRefundResponse,
  ZPaymentDetailResponse,
  type TDashboardSession,
} from '../../domain/schemas/dashboard';
import { Button } from '../ui/button';
import { FormError } from '../ui/form-error';
import { formatDateTime } from '../ui/format-date';
import { dashboardCall, messageOf, newIdempotencyKey } from './api';
import { Screen } from './screen';

/** A payment: what it is, everything that happened to it, its refunds, and the refund form. */
export function PaymentPage({
  paymentId,
  session,
}: {
  paymentId: string;
  session: TDashboardSession;
}) {
  const key = ['dashboard', 'payment', paymentId];
  const detail = useQuery({
    queryKey: key,
    queryFn: () =>
      dashboardCall(`/payments/${encodeURIComponent(paymentId)}`, ZPaymentDetailResponse),
  });
  const data = detail.data;
  return (
    <Screen title={DASHBOARD_TEXTS.paymentTitle} wide>
      <Link href="/">← {DASHBOARD_TEXTS.nav.payments}</Link>
      <FormError message={detail.error ? messageOf(detail.error) : null} />
      {detail.isPending && <p role="status">{DASHBOARD_TEXTS.loading}</p>}
      {data && (
        <div className="dash-columns">
          <section className="dash-card" aria-labelledby="payment-summary">
            <h2 id="payment-summary">
              {formatNaira(data.payment.amount)} · {data.payment.status}
            </h2>
            <dl className="dash-facts">
              <dt>Narration</dt>
              <dd>{data.payment.narration}</dd>
              <dt>Payment id</dt>
              <dd>{data.payment.paymentId}</dd>
              <dt>Reference</dt>
              <dd>{data.payment.reference ?? '—'}</dd>
              <dt>Paid with</dt>
              <dd>{data.payment.paidWith ?? 'Not paid'}</dd>
              <dt>Refunded</dt>
              <dd>{formatNaira(data.payment.refunded)}</dd>
            </dl>
          </section>
          {mayDo(session.role, 'payments.refund') && data.refundable > 0 && (
            <RefundForm
              paymentId={paymentId}
              refundable={data.refundable}
              limit={session.role === 'support' ? session.refundLimit : null}
              onDone={() => void detail.refetch()}
            />
          )}
          <section className="dash-card" aria-labelledby="timeline-title">
            <h2 id="timeline-title">{DASHBOARD_TEXTS.timelineTitle}</h2>
            <ol className="dash-timeline">
              {data.timeline.map((entry, at) => (
                <li key={`${entry.at}-${at}`}>
                  <span className="dash-muted">{formatDateTime(entry.at)}</span>
                  <span>{entry.title}</span>
                  {entry.detail && <span className="dash-muted">{entry.detail}</span>}
                </li>
              ))}
            </ol>
          </section>
        </div>
      )}
    </Screen>
  );
}

function RefundForm({
  paymentId,
  refundable,
  limit,
  onDone,
}: {
  paymentId: string;
  refundable: number;
  limit: number | null;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [idempotencyKey, setKey] = useState(newIdempotencyKey);
  const refund = useMutation({
    mutationFn: () =>
      dashboardCall(
        `/payments/${encodeURIComponent(paymentId)}/refunds`,
        ZDashboardRefundResponse,
        {
          method: 'POST',
          key: idempotencyKey,
          body: { amount: Math.round(Number(amount.replace(/,/g, '')) * 100), reason },
        },
      ),
    onSuccess: () => {
      setKey(newIdempotencyKey());
      void queryClient.invalidateQueries({ queryKey: ['dashboard', 'payments'] });
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    refund.mutate();
  };
  return (
    <form className="dash-card" onSubmit={submit} aria-labelledby="refund-title">
      <h2 id="refund-title">{DASHBOARD_TEXTS.refundTitle}</h2>
      <p className="dash-muted">{DASHBOARD_TEXTS.refundable(formatNaira(refundable))}</p>
      {limit !== null && (
        <p className="dash-muted">{DASHBOARD_TEXTS.refundLimit(formatNaira(limit))}</p>
      )}
      <label className="dash-field">
        {DASHBOARD_TEXTS.refundAmountLabel}
        <input
          inputMode="decimal"
          required
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
      </label>
      <label className="dash-field">
        {DASHBOARD_TEXTS.refundReasonLabel}
        <input
          required
          maxLength={200}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </label>
      <Button type="submit" disabled={refund.isPending}>
        {refund.isPending ? DASHBOARD_TEXTS.working : DASHBOARD_TEXTS.refundButton}
      </Button>
      {refund.data && (
        <p role="status">
          {DASHBOARD_TEXTS.refunded(
            formatNaira(refund.data.refund.amount),
            refund.data.refund.status,
          )}
        </p>
      )}
      <FormError message={refund.error ? messageOf(refund.error) : null} />
    </form>
  );
}
