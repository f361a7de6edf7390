import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { mayDo } from '../../domain/dashboard-roles';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import { formatNaira, parseNaira } from '../../domain/money';
import {
  ZDashboardRefundResponse,
  type TDashboardRefundRequest,
  type TDashboardSession,
} from '../../domain/schemas/dashboard';
import type { TRefund, TRefundAccount } from '../../domain/schemas/refunds';
import { ApiError } from '../api/api-error';
import { Button } from '../ui/button';
import { FormError } from '../ui/form-error';
import { formatDateTime } from '../ui/format-date';
import { dashboardCall, messageOf } from './api';
import { useKeyedMutation } from './keyed-mutation';
import { dashboardKeys, dashboardQueries } from './queries';
import { Screen } from './screen';

/** A payment: what it is, everything that happened to it, its refunds, and the refund form. */
export function PaymentPage({
  paymentId,
  session,
}: {
  paymentId: string;
  session: TDashboardSession;
}) {
  const detail = useQuery(dashboardQueries.payment(paymentId));
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
          {mayDo(session.role, 'payments.refund') &&
            (data.refundable > 0 || data.refunds.length > 0) && (
              <RefundPanel
                paymentId={paymentId}
                refundable={data.refundable}
                limit={session.role === 'support' ? session.refundLimit : null}
              />
            )}
          <RefundList refunds={data.refunds} />
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

/** The payment's refunds, newest first, as the payment's own record of what was given back. */
function RefundList({ refunds }: { refunds: readonly TRefund[] }) {
  return (
    <section className="dash-card" aria-labelledby="refunds-title">
      <h2 id="refunds-title">{DASHBOARD_TEXTS.refundsTitle}</h2>
      {refunds.length === 0 ? (
        <p className="dash-muted">{DASHBOARD_TEXTS.noRefunds}</p>
      ) : (
        <ul className="dash-timeline">
          {refunds.map((refund) => (
            <li key={refund.refundId}>
              <span className="dash-muted">{formatDateTime(refund.createdAt)}</span>
              <span>{refundWords(refund)}</span>
              {refund.reason && <span className="dash-muted">{refund.reason}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const refundWords = (refund: TRefund) =>
  refund.status === 'failed'
    ? DASHBOARD_TEXTS.refundFailed(formatNaira(refund.amount), refund.failureReason)
    : DASHBOARD_TEXTS.refunded(formatNaira(refund.amount), refund.status);

/**
 * The refund form. A success closes it: the refund is said, with what is left, and another refund
 * is a deliberate new act ('Refund more' opens an empty form). Each request carries its own key
 * (keyed-mutation.ts), so a refused amount never blocks the next one. A transfer whose notice
 * named no sender is refused with what to do (ask the payer for their account): the form then
 * asks for that account, and the refund goes there.
 */
function RefundPanel({
  paymentId,
  refundable,
  limit,
}: {
  paymentId: string;
  refundable: number;
  limit: number | null;
}) {
  const [done, setDone] = useState<TRefund | null>(null);
  const [needsAccount, setNeedsAccount] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const refund = useKeyedMutation(
    (body: TDashboardRefundRequest, key: string) =>
      dashboardCall(
        `/payments/${encodeURIComponent(paymentId)}/refunds`,
        ZDashboardRefundResponse,
        { method: 'POST', key, body },
      ),
    [dashboardKeys.payments, dashboardQueries.payment(paymentId).queryKey],
  );
  const refundMore = () => {
    refund.reset();
    setDone(null);
  };
  return (
    <section className="dash-card" aria-labelledby="refund-title">
      <h2 id="refund-title" ref={headingRef} tabIndex={-1}>
        {DASHBOARD_TEXTS.refundTitle}
      </h2>
      {done ? (
        <>
          <p role="status">{refundWords(done)}</p>
          <p className="dash-muted">
            {refundable > 0
              ? DASHBOARD_TEXTS.refundable(formatNaira(refundable))
              : DASHBOARD_TEXTS.nothingRefundable}
          </p>
          {refundable > 0 && (
            <Button variant="secondary" onClick={refundMore}>
              {DASHBOARD_TEXTS.refundMore}
            </Button>
          )}
        </>
      ) : (
        <RefundForm
          refundable={refundable}
          limit={limit}
          needsAccount={needsAccount}
          busy={refund.isPending}
          failure={refund.error ? messageOf(refund.error) : null}
          onSubmit={(body) =>
            refund.mutate(body, {
              onSuccess: (answer) => {
                setDone(answer.refund);
                headingRef.current?.focus();
              },
              onError: (error) => {
                if (error instanceof ApiError && error.code === 'REFUND_SENDER_UNKNOWN') {
                  setNeedsAccount(true);
                }
              },
            })
          }
        />
      )}
    </section>
  );
}

/** The payer's account as the form holds it: whole only when a bank is chosen and 10 digits typed. */
const refundAccountOf = (account: TRefundAccount): TRefundAccount | null =>
  account.institutionCode !== '' && /^\d{10}$/.test(account.accountNumber) ? account : null;

function RefundForm({
  refundable,
  limit,
  needsAccount,
  busy,
  failure,
  onSubmit,
}: {
  refundable: number;
  limit: number | null;
  /** The payment's transfer named no sender: the refund goes to the account the payer gives. */
  needsAccount: boolean;
  busy: boolean;
  failure: string | null;
  onSubmit: (body: TDashboardRefundRequest) => void;
}) {
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [account, setAccount] = useState<TRefundAccount>({
    institutionCode: '',
    accountNumber: '',
  });
  const [invalid, setInvalid] = useState(false);
  const [accountInvalid, setAccountInvalid] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const kobo = parseNaira(amount);
    const refundTo = needsAccount ? refundAccountOf(account) : null;
    setInvalid(kobo === null || kobo === 0);
    setAccountInvalid(needsAccount && refundTo === null);
    if (!kobo || (needsAccount && !refundTo)) return;
    onSubmit({ amount: kobo, reason: reason.trim(), ...(refundTo ? { refundTo } : {}) });
  };
  return (
    <form onSubmit={submit} aria-labelledby="refund-title" noValidate>
      <p className="dash-muted">{DASHBOARD_TEXTS.refundable(formatNaira(refundable))}</p>
      {limit !== null && (
        <p className="dash-muted">{DASHBOARD_TEXTS.refundLimit(formatNaira(limit))}</p>
      )}
      <label className="dash-field">
        {DASHBOARD_TEXTS.refundAmountLabel}
        <input
          inputMode="decimal"
          required
          aria-invalid={invalid}
          aria-describedby={invalid ? 'refund-amount-error' : undefined}
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
      </label>
      {invalid && (
        <p id="refund-amount-error" className="form-error" role="alert">
          {DASHBOARD_TEXTS.refundAmountInvalid}
        </p>
      )}
      <label className="dash-field">
        {DASHBOARD_TEXTS.refundReasonLabel}
        <input
          required
          maxLength={200}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </label>
      {needsAccount && (
        <RefundAccountFields account={account} invalid={accountInvalid} onChange={setAccount} />
      )}
      <Button type="submit" disabled={busy}>
        {busy ? DASHBOARD_TEXTS.working : DASHBOARD_TEXTS.refundButton}
      </Button>
      <FormError message={failure} />
    </form>
  );
}

/** Where a transfer whose notice named no sender is paid back: the account the payer gives. */
function RefundAccountFields({
  account,
  invalid,
  onChange,
}: {
  account: TRefundAccount;
  invalid: boolean;
  onChange: (account: TRefundAccount) => void;
}) {
  const banks = useQuery(dashboardQueries.banks());
  return (
    <fieldset
      className="dash-field"
      aria-describedby={invalid ? 'refund-account-error' : undefined}
    >
      <legend>{DASHBOARD_TEXTS.refundAccountTitle}</legend>
      <label className="dash-field">
        {DASHBOARD_TEXTS.refundBankLabel}
        <select
          required
          aria-invalid={invalid && account.institutionCode === ''}
          value={account.institutionCode}
          onChange={(e) => onChange({ ...account, institutionCode: e.target.value })}
        >
          <option value="">{DASHBOARD_TEXTS.refundBankChoose}</option>
          {banks.data?.banks.map((bank) => (
            <option key={bank.institutionCode} value={bank.institutionCode}>
              {bank.name}
            </option>
          ))}
        </select>
      </label>
      <FormError message={banks.error ? messageOf(banks.error) : null} />
      <label className="dash-field">
        {DASHBOARD_TEXTS.refundAccountNumberLabel}
        <input
          inputMode="numeric"
          required
          maxLength={10}
          aria-invalid={invalid && !/^\d{10}$/.test(account.accountNumber)}
          value={account.accountNumber}
          onChange={(e) =>
            onChange({ ...account, accountNumber: e.target.value.replace(/\D/g, '') })
          }
        />
      </label>
      {invalid && (
        <p id="refund-account-error" className="form-error" role="alert">
          {DASHBOARD_TEXTS.refundAccountInvalid}
        </p>
      )}
    </fieldset>
  );
}
