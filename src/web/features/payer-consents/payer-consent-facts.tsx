import type { ReactNode } from 'react';
import { dataSharingChips } from '../../../domain/data-sharing';
import { formatNaira } from '../../../domain/money';
import type { payerConsentSummary } from '../../../domain/payer-consents';
import { dueDateLabel } from '../../../domain/payment-date';
import { refundExpectedText } from '../../../domain/refund-clocks';
import { REFUND_STATE_LABELS, REVERSAL_STATE_LABELS } from '../../../domain/refunds';
import type { TPayerConsent } from '../../../domain/schemas/payer-consents';
import { formatDateTime } from '../../ui/format-date';

/** What was granted, paid and cancelled, and from which accounts. */
export function consentFacts(
  consent: TPayerConsent,
  summary: ReturnType<typeof payerConsentSummary>,
): ReactNode {
  const accounts = consent.repaymentAccounts;
  return (
    <dl className="payer-consent-facts">
      {summary.amountPaid ? (
        <>
          <dt>Amount paid</dt>
          <dd className="amount">{summary.amountPaid}</dd>
        </>
      ) : null}
      {summary.futurePayments ? (
        <>
          <dt>Future payments</dt>
          <dd>{summary.futurePayments}</dd>
        </>
      ) : null}
      {summary.nextDebit ? (
        <>
          <dt>Next debit</dt>
          <dd>{summary.nextDebit}</dd>
        </>
      ) : null}
      {accounts.length > 0 ? (
        <>
          <dt>{accounts.length === 1 ? 'Repayment account' : 'Repayment accounts'}</dt>
          <dd>
            <ul className="plain-list">
              {accounts.map((account) => (
                <li key={account.accountId}>
                  {account.bankName} {account.accountNumber}
                </li>
              ))}
            </ul>
          </dd>
        </>
      ) : null}
      {consent.form ? (
        <>
          <dt>Form</dt>
          <dd>Completed</dd>
        </>
      ) : null}
      {consent.revokedAt ? (
        <>
          <dt>Revoked on</dt>
          <dd>{formatDateTime(consent.revokedAt)}</dd>
        </>
      ) : null}
      {summary.cancelled ? (
        <>
          <dt>
            {consent.status === 'revoked' ? 'Cancelled by revoking' : 'Cancelled by the merchant'}
          </dt>
          <dd>{summary.cancelled}</dd>
        </>
      ) : null}
    </dl>
  );
}

/** The debits still to come, each with its amount, narration and due date. */
export function upcomingDebits(consent: TPayerConsent, merchant: string): ReactNode {
  return consent.upcomingDebits.length > 0 ? (
    <section aria-label={`Upcoming debits for ${merchant}`}>
      <h3 className="section-title">Upcoming debits</h3>
      <ul className="list">
        {consent.upcomingDebits.map((debit) => (
          <li key={debit.paymentId}>
            <span className="upcoming-debit">
              <span className="amount">{formatNaira(debit.amount)}</span>
              <span className="secondary-text">{debit.narration}</span>
            </span>
            <span className="due-date">{dueDateLabel(debit.dueDate)}</span>
          </li>
        ))}
      </ul>
    </section>
  ) : null;
}

/**
 * The refunds the merchant made and the reversals we made (a debit given back after cancelling, a
 * charge given back), each with its amount, date and state, and the date it is expected by.
 */
export function consentRefunds(consent: TPayerConsent, merchant: string): ReactNode {
  return consent.refunds.length > 0 ? (
    <section aria-label={`Refunds from ${merchant}`}>
      <h3 className="section-title">Refunds</h3>
      <ul className="list">
        {consent.refunds.map((refund) => (
          <li key={refund.refundId}>
            <span className="upcoming-debit">
              <span className="amount">{formatNaira(refund.amount)}</span>
              <span className="secondary-text">{formatDateTime(refund.createdAt)}</span>
              {refund.expectedBy ? (
                <span className="secondary-text">{refundExpectedText(refund.expectedBy)}</span>
              ) : null}
            </span>
            <span className={`status-badge refund-${refund.status}`}>
              {
                (refund.kind === 'reversal' ? REVERSAL_STATE_LABELS : REFUND_STATE_LABELS)[
                  refund.status
                ]
              }
            </span>
          </li>
        ))}
      </ul>
    </section>
  ) : null;
}

/** The data the consent shares with the merchant. */
export function dataShared(consent: TPayerConsent, merchant: string): ReactNode {
  const chips = dataSharingChips(consent.dataSharing);
  return chips.length > 0 ? (
    <section aria-label={`Data shared with ${merchant}`}>
      <h3 className="section-title">Data shared</h3>
      <ul className="chips">
        {chips.map((chip) => (
          <li key={chip.category} className="chip">
            {chip.label}
          </li>
        ))}
      </ul>
    </section>
  ) : null;
}
