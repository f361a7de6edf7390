import { PaystackRefusal, optionalAmount, optionalString, requiredString } from './request-checks';
import {
  iso,
  ok,
  type TAnswer,
  type TContext,
  type TRoute,
  type TSimState,
  type TTransaction,
} from './simulator-state';

/**
 * Refunds (POST /refund, GET /refund/{id}, GET /refund?transaction=): partial refunds add up to
 * the transaction's amount and no further; each goes pending, processing, then processed (or
 * failed), with a notice at each step (Refunds docs, "Refund events").
 */

type TRefund = {
  id: number;
  transaction: TTransaction;
  amount: number;
  status: 'pending' | 'processing' | 'processed' | 'failed';
  createdAt: Date;
  updatedAt: Date;
  refundedAt: Date | null;
  customerNote: string;
  merchantNote: string;
  fails: boolean;
};

export const refunds = (state: TSimState) => {
  const { now, transactionFields, findTransaction } = state;
  const refundsById = new Map<number, TRefund>();
  let failNext = false;

  const refundFields = (refund: TRefund) => ({
    id: refund.id,
    integration: 100_001,
    domain: 'test',
    transaction: refund.transaction.id,
    dispute: null,
    settlement: null,
    amount: refund.amount,
    deducted_amount: refund.status === 'processed' ? refund.amount : 0,
    fully_deducted: refund.status === 'processed',
    currency: 'NGN',
    channel: refund.transaction.channel,
    status: refund.status,
    refunded_by: 'api',
    refunded_at: iso(refund.refundedAt),
    expected_at: new Date(refund.createdAt.getTime() + 7 * 24 * 60 * 60 * 1000).toISOString(),
    customer_note: refund.customerNote,
    merchant_note: refund.merchantNote,
    createdAt: iso(refund.createdAt),
    updatedAt: iso(refund.updatedAt),
  });

  const refundNotice = (refund: TRefund) => ({
    status: refund.status,
    transaction_reference: refund.transaction.reference,
    refund_reference: refund.status === 'processed' ? `TRF_${refund.id}` : null,
    amount: String(refund.amount),
    currency: 'NGN',
    processor: refund.transaction.channel === 'card' ? 'card' : 'instant-transfer',
    customer: { first_name: null, last_name: null, email: refund.transaction.email },
    integration: 100_001,
    domain: 'test',
    id: String(refund.id),
  });

  /**
   * POST /refund: queued as `pending` (Paystack's answer, "Refund has been queued for
   * processing"), then refund.pending, refund.processing and refund.processed (or refund.failed)
   * once the answer is out. Partial refunds add up to the transaction's amount and no further.
   */
  const createRefund = (ctx: TContext): TAnswer => {
    const key = requiredString(ctx.body, 'transaction');
    const requested = optionalAmount(ctx.body);
    const transaction = findTransaction(key);
    // The refusals' wording below is assumed: Paystack's docs show none.
    if (!transaction) throw new PaystackRefusal(404, 'Transaction not found');
    if (transaction.state !== 'success') {
      throw new PaystackRefusal(400, 'Cannot refund a transaction that was not successful');
    }
    const left = transaction.amount - transaction.refunded;
    if (left <= 0) throw new PaystackRefusal(400, 'Transaction has been fully reversed');
    const amount = requested ?? left;
    if (amount > left) {
      throw new PaystackRefusal(
        400,
        'Refund amount cannot be more than the amount left to refund on the transaction',
      );
    }
    transaction.refunded += amount;
    const at = now();
    const refund: TRefund = {
      id: state.newId(),
      transaction,
      amount,
      status: 'pending',
      createdAt: at,
      updatedAt: at,
      refundedAt: null,
      customerNote:
        optionalString(ctx.body, 'customer_note') ??
        `Refund for transaction ${transaction.reference}`,
      merchantNote:
        optionalString(ctx.body, 'merchant_note') ??
        `Refund for transaction ${transaction.reference}`,
      fails: failNext,
    };
    failNext = false;
    refundsById.set(refund.id, refund);
    ctx.later.push(async () => {
      await state.send('refund.pending', refundNotice(refund));
      refund.status = 'processing';
      refund.updatedAt = now();
      await state.send('refund.processing', refundNotice(refund));
      refund.updatedAt = now();
      if (refund.fails) {
        refund.status = 'failed';
        transaction.refunded -= refund.amount;
        await state.send('refund.failed', refundNotice(refund));
      } else {
        refund.status = 'processed';
        refund.refundedAt = now();
        transaction.refundedProcessed += refund.amount;
        state.funds.balance -= refund.amount;
        await state.send('refund.processed', refundNotice(refund));
      }
    });
    const { transaction: _id, ...fields } = refundFields(refund);
    return ok('Refund has been queued for processing', {
      transaction: transactionFields(transaction),
      ...fields,
    });
  };

  const fetchRefund = (ctx: TContext): TAnswer => {
    const refund = refundsById.get(Number(ctx.segments[1]));
    if (!refund) throw new PaystackRefusal(404, 'Refund not found');
    return ok('Refund retrieved', refundFields(refund));
  };

  const listRefunds = (ctx: TContext): TAnswer => {
    const key = ctx.query.get('transaction');
    const transaction = key === null ? undefined : findTransaction(key);
    const found = [...refundsById.values()].filter(
      (refund) => key === null || refund.transaction === transaction,
    );
    return ok('Refunds retrieved', found.map(refundFields), {
      meta: { total: found.length, skipped: 0, perPage: 50, page: 1, pageCount: 1 },
    });
  };

  const routes: TRoute[] = [
    { method: 'POST', path: /^\/refund$/, handle: createRefund },
    { method: 'GET', path: /^\/refund$/, handle: listRefunds },
    { method: 'GET', path: /^\/refund\/\d+$/, handle: fetchRefund },
  ];

  return {
    routes,
    failNextRefund: () => {
      failNext = true;
    },
  };
};
