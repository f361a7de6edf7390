import type { TSettlementLine, TSettlementPeriod, TSettlementPort } from '../payments';
import type { TMonnifyDisbursement, TMonnifyRefund, TMonnifyTransaction } from './monnify-api';
import { GIVE_BACK_PREFIX } from './refunds';
import { koboOf, ourChannel, type TMonnify } from './monnify-shared';

/*
 * The settlement report, from Monnify's lists: the transactions search (GET
 * /api/v1/transactions/search, narrowed to the period by `from` and `to`), the refunds (GET
 * /api/v1/refunds) and the single transfers (GET /api/v2/disbursements/single/transactions).
 * Card charges of ours that took money are lines; transfers in are not (the services book what
 * arrived by the notice); a merchant's refunds are lines of their own; give-backs mark the
 * transaction they gave back from; payouts that succeeded are lines (reversed: given back).
 * Monnify's settlement-detail calls (settlement-detail, find-by-settlement-reference) name when
 * and in which batch money reached our bank account, which the books do not hold.
 */

const within = (period: TSettlementPeriod | undefined, when: string | null | undefined) => {
  if (!period || !when) return true;
  const at = Date.parse(when.includes('T') ? when : `${when.replace(' ', 'T')}Z`);
  return Number.isNaN(at) || (at >= period.from.getTime() && at <= period.to.getTime());
};

export function monnifySettlement(mf: TMonnify): TSettlementPort {
  return {
    provider: 'monnify',
    async settlementReport(period) {
      const lines: TSettlementLine[] = [];
      const givenBack = new Map<string, number>();
      for await (const refund of mf.client.list<TMonnifyRefund & { createdOn?: string }>(
        '/api/v1/refunds',
        {},
      )) {
        if (refund.refundStatus !== 'COMPLETED' || !within(period, refund.createdOn)) continue;
        const amount = koboOf(refund.refundAmount);
        if (refund.refundReference.startsWith(GIVE_BACK_PREFIX)) {
          givenBack.set(
            refund.transactionReference,
            (givenBack.get(refund.transactionReference) ?? 0) + amount,
          );
        } else {
          lines.push({
            channel: 'refund',
            reference: refund.refundReference,
            amount,
            givenBack: false,
          });
        }
      }
      const query: Record<string, number> = period
        ? { from: period.from.getTime(), to: period.to.getTime() }
        : {};
      for await (const t of mf.client.list<TMonnifyTransaction>(
        '/api/v1/transactions/search',
        query,
      )) {
        if (ourChannel(t) !== 'card') continue;
        if (!['PAID', 'REVERSED'].includes(t.paymentStatus)) continue;
        const amount = koboOf(t.amountPaid);
        const back =
          t.paymentStatus === 'REVERSED' || (givenBack.get(t.transactionReference) ?? 0) >= amount;
        lines.push({ channel: 'card', reference: t.paymentReference, amount, givenBack: back });
      }
      const transfers = mf.client.list<TMonnifyDisbursement & { createdOn?: string }>(
        '/api/v2/disbursements/single/transactions',
        {},
        { page: 'pageNo', size: 'pageSize' },
      );
      for await (const transfer of transfers) {
        if (transfer.status !== 'SUCCESS' && transfer.status !== 'REVERSED') continue;
        if (!within(period, transfer.createdOn)) continue;
        lines.push({
          channel: 'payout',
          reference: transfer.reference,
          amount: koboOf(transfer.amount),
          givenBack: transfer.status === 'REVERSED',
        });
      }
      return lines;
    },
  };
}
