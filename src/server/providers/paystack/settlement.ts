import type { TSettlementLine, TSettlementPeriod, TSettlementPort } from '../payments';
import type { TPaystackTransaction, TPaystackTransfer } from './paystack-api';
import { fromPaystackReference } from './paystack-references';
import { ourChannel } from './paystack-notices';
import type { TPaystack } from './paystack-shared';
import { referenceOfDescription, type TPaystackPaymentRequest } from './terminal';
import { listRefunds, referenceOfNote, refundTransactionKey } from './refunds';

/** A list's query narrowed to a period, as each of Paystack's lists takes it (`from`, `to`). */
const madeIn = (period: TSettlementPeriod | undefined): Record<string, string> =>
  period ? { from: period.from.toISOString(), to: period.to.toISOString() } : {};

/**
 * The settlement report: Paystack's lists of transactions, transfers, refunds and paid payment
 * requests (a Paystack Terminal's payments), each narrowed to the period when one is given
 * (`from` and `to`, which List Transactions, List Transfers, List Refunds and List Payment
 * Requests all take: PaystackOSS/openapi paths/transaction.yaml, transfer.yaml, refund.yaml,
 * paymentrequest.yaml), so its cost follows the period, not the integration's history.
 */
export function paystackSettlement(ps: TPaystack): TSettlementPort {
  return {
    provider: 'paystack',
    async settlementReport(period) {
      const lines: TSettlementLine[] = [];
      // Transactions given back whole by us (not a merchant's refunds, which are lines of their
      // own), by the transaction and by our reference (a pushed terminal's request is listed by
      // ours, its transaction not).
      const givenBack = new Set<string>();
      for await (const refund of listRefunds(ps, undefined, period)) {
        if (refund.status !== 'processed') continue;
        const ours = referenceOfNote('giveback', refund.merchant_note);
        if (ours) {
          givenBack.add(String(refundTransactionKey(refund)));
          givenBack.add(ours);
        }
        const reference = referenceOfNote('refund', refund.merchant_note);
        if (reference)
          lines.push({ channel: 'refund', reference, amount: refund.amount, givenBack: false });
      }
      const transactions = ps.client.list<TPaystackTransaction>('/transaction', madeIn(period));
      for await (const transaction of transactions) {
        const reference = fromPaystackReference(transaction.reference);
        const channel = ourChannel(transaction.metadata);
        if (!reference || (channel !== 'card' && channel !== 'debit')) continue;
        if (transaction.status !== 'success' && transaction.status !== 'reversed') continue;
        lines.push({
          channel,
          reference,
          amount: transaction.amount,
          givenBack: givenBack.has(String(transaction.id)) || givenBack.has(transaction.reference),
        });
      }
      for await (const transfer of ps.client.list<TPaystackTransfer>('/transfer', madeIn(period))) {
        const reference = fromPaystackReference(transfer.reference);
        if (!reference || (transfer.status !== 'success' && transfer.status !== 'reversed'))
          continue;
        lines.push({
          channel: 'payout',
          reference,
          amount: transfer.amount,
          givenBack: transfer.status === 'reversed',
        });
      }
      // Payments at a Paystack Terminal: paid payment requests, ours by their description's mark.
      const paid = ps.client.list<TPaystackPaymentRequest>('/paymentrequest', {
        status: 'success',
        ...madeIn(period),
      });
      for await (const request of paid) {
        const reference = referenceOfDescription(request.description);
        if (!reference) continue;
        const back = givenBack.has(reference);
        lines.push({ channel: 'chip', reference, amount: request.amount, givenBack: back });
      }
      return lines;
    },
  };
}
