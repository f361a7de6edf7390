import { randomBytes } from 'node:crypto';
import { BANKS } from './banks';
import {
  PaystackRefusal,
  optionalAmount,
  optionalObject,
  optionalString,
  requiredString,
  type TBody,
} from './request-checks';
import {
  INTEGRATION_ID,
  iso,
  listPage,
  madeWithin,
  ok,
  type TAnswer,
  type TContext,
  type TRoute,
  type TSimState,
  type TTransaction,
} from './simulator-state';

/**
 * Refunds (POST /refund, GET /refund/{id}, GET /refund?transaction=&from=&to=, POST
 * /refund/retry_with_customer_details/{id}): partial refunds add up to the transaction's amount
 * and no further; each goes pending, processing, then processed (or failed, or needs-attention
 * until retried with the customer's account), with a notice at each step. Paystack's refunds
 * carry no reference of the merchant's: merchant_note is kept, and listed by transaction and by
 * the time they were made, a page at a time, for an adapter that writes its own there.
 *
 * A refund's notice is what paystack.com/docs/payments/refunds ("Listen to notifications") shows:
 * `{ status, transaction_reference, refund_reference, amount, currency, processor, customer,
 * integration, domain }`, with `amount` as a string of the minor unit and `refund_reference` the
 * processor's (null until processed). It names the refunded transaction, never the refund's id,
 * so a receiver finds which refund it means by the transaction (GET /refund?transaction=).
 * Create, fetch, list and retry follow PaystackOSS/openapi (paths/refund*.yaml).
 */

type TRefund = {
  id: number;
  transaction: TTransaction;
  amount: number;
  status: 'pending' | 'processing' | 'processed' | 'failed' | 'needs-attention';
  createdAt: Date;
  updatedAt: Date;
  refundedAt: Date | null;
  customerNote: string;
  merchantNote: string;
  /** The processor's reference, told once processed (refund_reference): not the refund's id. */
  processorReference: string;
  /** How it ends once processing: as told by the controls, else processed. */
  ending: 'processed' | 'failed' | 'needs-attention';
};

/** What the refunds keep beside the shared state: refunds by id, and how the next one ends. */
type TRefundDesk = {
  state: TSimState;
  refundsById: Map<number, TRefund>;
  controls: { nextEnding: TRefund['ending'] };
};

/** The refund object as Paystack's create, fetch and list show it. */
const refundFields = (refund: TRefund) => ({
  id: refund.id,
  integration: INTEGRATION_ID,
  domain: 'test',
  transaction: refund.transaction.id,
  dispute: null,
  settlement: null,
  amount: refund.amount,
  deducted_amount: refund.status === 'processed' ? refund.amount : 0,
  fully_deducted: refund.status === 'processed',
  currency: refund.transaction.currency,
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

/** The data of a refund's notice (see this file's header). */
const refundNotice = (refund: TRefund) => ({
  status: refund.status,
  transaction_reference: refund.transaction.reference,
  refund_reference: refund.status === 'processed' ? refund.processorReference : null,
  amount: String(refund.amount),
  currency: refund.transaction.currency,
  processor: refund.transaction.channel === 'card' ? 'card' : 'instant-transfer',
  customer: { first_name: null, last_name: null, email: refund.transaction.email },
  integration: INTEGRATION_ID,
  domain: 'test',
});

/** How much of the transaction this refund takes: what was asked, else all that is left. */
const refundableAmount = (ctx: TContext, transaction: TTransaction | undefined) => {
  const requested = optionalAmount(ctx.body);
  // The refusals' wording below is assumed: Paystack's docs show none.
  if (!transaction) throw new PaystackRefusal(404, 'Transaction not found');
  if (transaction.state !== 'success') {
    throw new PaystackRefusal(400, 'Cannot refund a transaction that was not successful');
  }
  // A refund is in the transaction's currency (Create Refund, `currency`); the wording is assumed.
  const currency = optionalString(ctx.body, 'currency');
  if (currency !== undefined && currency !== transaction.currency) {
    throw new PaystackRefusal(400, `Currency must be the transaction's, ${transaction.currency}`);
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
  return { transaction, amount };
};

/**
 * POST /refund: queued as `pending` (Paystack's answer, "Refund has been queued for
 * processing"), then refund.pending, refund.processing and refund.processed (or refund.failed)
 * once the answer is out. Partial refunds add up to the transaction's amount and no further.
 */
const createRefund = (desk: TRefundDesk, ctx: TContext): TAnswer => {
  const { state } = desk;
  const key = requiredString(ctx.body, 'transaction');
  const { transaction, amount } = refundableAmount(ctx, state.findTransaction(key));
  transaction.refunded += amount;
  const at = state.now();
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
    processorReference: `TRF_${randomBytes(8).toString('hex')}`,
    ending: desk.controls.nextEnding,
  };
  desk.controls.nextEnding = 'processed';
  desk.refundsById.set(refund.id, refund);
  ctx.later.push(async () => {
    await state.send('refund.pending', refundNotice(refund));
    await processRefund(state, refund);
  });
  const { transaction: _id, ...fields } = refundFields(refund);
  return ok('Refund has been queued for processing', {
    transaction: state.transactionFields(transaction),
    ...fields,
  });
};

/** Processing, then the refund's ending, each with its notice. */
const processRefund = async (state: TSimState, refund: TRefund) => {
  const { transaction } = refund;
  refund.status = 'processing';
  refund.updatedAt = state.now();
  await state.send('refund.processing', refundNotice(refund));
  refund.updatedAt = state.now();
  if (refund.ending === 'failed') {
    refund.status = 'failed';
    transaction.refunded -= refund.amount;
    await state.send('refund.failed', refundNotice(refund));
  } else if (refund.ending === 'needs-attention') {
    // Paystack could not send the money back on its own: it waits for the customer's account
    // (POST /refund/retry_with_customer_details/{id}), and the notice carries both notes.
    refund.status = 'needs-attention';
    await state.send('refund.needs-attention', {
      ...refundNotice(refund),
      customer_note: refund.customerNote,
      merchant_note: refund.merchantNote,
    });
  } else {
    refund.status = 'processed';
    refund.refundedAt = state.now();
    transaction.refundedProcessed += refund.amount;
    state.funds.balance -= refund.amount;
    await state.send('refund.processed', refundNotice(refund));
  }
};

/** The customer's account a retried refund goes to, checked after the refund's state. */
const checkRetryAccount = (refund: TRefund, details: TBody) => {
  const currency = requiredString(details, 'currency');
  const accountNumber = requiredString(details, 'account_number');
  const bankId = requiredString(details, 'bank_id');
  if (refund.status !== 'needs-attention') {
    throw new PaystackRefusal(
      422,
      'Invalid Refund state, refund status should be "needs-attention"',
      {
        meta: { nextStep: "Ensure that the value(s) you're passing are valid." },
        type: 'validation_error',
        code: 'invalid_params',
      },
    );
  }
  // The wording of these two refusals is assumed.
  if (currency !== 'NGN') throw new PaystackRefusal(400, "Currency must be the payment's, NGN");
  if (!/^\d{10}$/.test(accountNumber) || !BANKS.some((bank) => String(bank.id) === bankId)) {
    throw new PaystackRefusal(400, 'Invalid account details');
  }
};

/**
 * POST /refund/retry_with_customer_details/{id}: a refund that needs attention goes to the
 * customer's account given here, and is processed ("Refund retried and has been queued for
 * processing"); any other refund is refused with the documented 422.
 */
const retryRefund = (desk: TRefundDesk, ctx: TContext): TAnswer => {
  const refund = desk.refundsById.get(Number(ctx.segments[2]));
  if (!refund) throw new PaystackRefusal(404, 'Refund not found');
  const details = optionalObject(ctx.body, 'refund_account_details');
  if (!details) throw new PaystackRefusal(400, 'refund_account_details is required');
  checkRetryAccount(refund, details);
  refund.ending = 'processed';
  refund.status = 'processing';
  refund.updatedAt = desk.state.now();
  ctx.later.push(() => processRefund(desk.state, refund));
  return ok('Refund retried and has been queued for processing', refundFields(refund));
};

/** GET /refund/{id}. */
const fetchRefund = (desk: TRefundDesk, ctx: TContext): TAnswer => {
  const refund = desk.refundsById.get(Number(ctx.segments[1]));
  if (!refund) throw new PaystackRefusal(404, 'Refund not found');
  return ok('Refund retrieved', refundFields(refund));
};

/**
 * GET /refund: newest first, a page at a time (`perPage`, `page`), narrowed to one transaction by
 * `transaction` (its id or reference; paystack.com's List Refunds) and to those made from `from`
 * to `to`, both included (PaystackOSS/openapi paths/refund.yaml).
 */
const listRefunds = (desk: TRefundDesk, ctx: TContext): TAnswer => {
  const key = ctx.query.get('transaction');
  const transaction = key === null ? undefined : desk.state.findTransaction(key);
  const within = madeWithin(ctx);
  const found = [...desk.refundsById.values()]
    .reverse()
    .filter(
      (refund) => (key === null || refund.transaction === transaction) && within(refund.createdAt),
    );
  return listPage(ctx, 'Refunds retrieved', found.map(refundFields));
};

/** The refunds' routes, and the controls that decide how the next refund ends. */
export const refunds = (state: TSimState) => {
  const desk: TRefundDesk = {
    state,
    refundsById: new Map(),
    controls: { nextEnding: 'processed' },
  };
  const routes: TRoute[] = [
    { method: 'POST', path: /^\/refund$/, handle: (ctx) => createRefund(desk, ctx) },
    { method: 'GET', path: /^\/refund$/, handle: (ctx) => listRefunds(desk, ctx) },
    { method: 'GET', path: /^\/refund\/\d+$/, handle: (ctx) => fetchRefund(desk, ctx) },
    {
      method: 'POST',
      path: /^\/refund\/retry_with_customer_details\/\d+$/,
      handle: (ctx) => retryRefund(desk, ctx),
    },
  ];
  return {
    routes,
    failNextRefund: () => {
      desk.controls.nextEnding = 'failed';
    },
    nextRefundNeedsAttention: () => {
      desk.controls.nextEnding = 'needs-attention';
    },
  };
};
