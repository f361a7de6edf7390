import { FAILING_PAYOUT_ACCOUNT, bankByCode, resolveAccountName, type TSimBank } from './banks';
import { PaystackRefusal, amountIn, optionalString, requiredString } from './request-checks';
import {
  INTEGRATION_ID,
  iso,
  listPage,
  madeWithin,
  ok,
  randomCode,
  type TAnswer,
  type TContext,
  type TRoute,
  type TSimState,
} from './simulator-state';

/**
 * Payouts: transfer recipients (NUBAN accounts), transfers from the balance, their verify by
 * reference, and the balance (GET /balance).
 */

type TRecipient = {
  id: number;
  recipient_code: string;
  name: string;
  type: 'nuban';
  currency: string;
  account_number: string;
  account_name: string | null;
  bank: TSimBank;
  createdAt: Date;
};

type TTransfer = {
  id: number;
  transfer_code: string;
  reference: string;
  amount: number;
  reason: string | null;
  recipient: TRecipient;
  status: 'pending' | 'success' | 'failed' | 'reversed';
  createdAt: Date;
  updatedAt: Date;
  transferredAt: Date | null;
};

/** What the payouts keep beside the shared state: recipients by code, transfers by reference. */
type TPayoutDesk = {
  state: TSimState;
  recipients: Map<string, TRecipient>;
  transfers: Map<string, TTransfer>;
};

/** The transfer recipient object as Paystack shows it. */
const recipientFields = (recipient: TRecipient) => ({
  active: true,
  createdAt: iso(recipient.createdAt),
  currency: recipient.currency,
  description: null,
  domain: 'test',
  email: null,
  id: recipient.id,
  integration: INTEGRATION_ID,
  metadata: null,
  name: recipient.name,
  recipient_code: recipient.recipient_code,
  type: recipient.type,
  updatedAt: iso(recipient.createdAt),
  is_deleted: false,
  details: {
    authorization_code: null,
    account_number: recipient.account_number,
    account_name: recipient.account_name,
    bank_code: recipient.bank.code,
    bank_name: recipient.bank.name,
  },
});

/** POST /transferrecipient: a NUBAN recipient, or the one already known for the account. */
const createRecipient = (desk: TPayoutDesk, ctx: TContext): TAnswer => {
  const type = requiredString(ctx.body, 'type');
  const name = requiredString(ctx.body, 'name');
  const accountNumber = requiredString(ctx.body, 'account_number');
  const bankCode = requiredString(ctx.body, 'bank_code');
  const currency = optionalString(ctx.body, 'currency') ?? 'NGN';
  // Only NUBAN (Nigerian bank account) recipients are simulated; the wording is assumed.
  if (type !== 'nuban') throw new PaystackRefusal(400, 'Recipient type is not supported');
  const bank = bankByCode(bankCode);
  if (!bank) throw new PaystackRefusal(400, 'Invalid bank code');
  if (!/^\d{10}$/.test(accountNumber)) throw new PaystackRefusal(400, 'Account number is invalid');
  // Paystack answers an existing recipient (same account at the same bank) instead of a new one.
  const existing = [...desk.recipients.values()].find(
    (recipient) => recipient.account_number === accountNumber && recipient.bank.code === bankCode,
  );
  if (existing) return ok('Transfer recipient created successfully', recipientFields(existing));
  const recipient: TRecipient = {
    id: desk.state.newId(),
    recipient_code: `RCP_${randomCode(15)}`,
    name,
    type: 'nuban',
    currency,
    account_number: accountNumber,
    account_name: resolveAccountName(bankCode, accountNumber),
    bank,
    createdAt: desk.state.now(),
  };
  desk.recipients.set(recipient.recipient_code, recipient);
  return ok('Transfer recipient created successfully', recipientFields(recipient));
};

/** The transfer object as Paystack shows it, its recipient as an object or by id. */
const transferFields = (transfer: TTransfer, recipientAsObject: boolean) => ({
  amount: transfer.amount,
  createdAt: iso(transfer.createdAt),
  currency: 'NGN',
  domain: 'test',
  failures: null,
  id: transfer.id,
  integration: INTEGRATION_ID,
  reason: transfer.reason,
  reference: transfer.reference,
  source: 'balance',
  source_details: null,
  status: transfer.status,
  titan_code: null,
  transfer_code: transfer.transfer_code,
  transferred_at: iso(transfer.transferredAt),
  updatedAt: iso(transfer.updatedAt),
  recipient: recipientAsObject ? recipientFields(transfer.recipient) : transfer.recipient.id,
  session: { provider: transfer.status === 'success' ? 'nip' : null, id: null },
  fee_charged: 0,
  gateway_response: null,
});

/** The refusals of POST /transfer, in the order Paystack checks: source, reference, recipient, balance. */
const checkTransfer = (
  desk: TPayoutDesk,
  request: { source: string; amount: number; recipientCode: string; reference: string },
) => {
  if (request.source !== 'balance')
    throw new PaystackRefusal(400, 'Invalid source. Only balance is supported');
  // "a lowercase alphanumeric string with only -,_ symbols allowed", at least 16 long (TransferBase).
  if (!/^[a-z0-9_-]{16,100}$/.test(request.reference)) {
    throw new PaystackRefusal(
      400,
      'Invalid transfer reference. Use 16 to 100 lowercase letters, digits, - and _',
      {
        type: 'validation_error',
        code: 'invalid_params',
      },
    );
  }
  const recipient = desk.recipients.get(request.recipientCode);
  if (!recipient) {
    throw new PaystackRefusal(400, 'Recipient specified is invalid', {
      meta: {
        nextStep:
          'Provide a valid recipient. Ensure you are passing the recipient code in the recipient param',
      },
      type: 'validation_error',
      code: 'invalid_transfer_recipient',
    });
  }
  // Undocumented wording: a reference is a transfer's idempotency key, so a second one is refused.
  if (desk.transfers.has(request.reference)) {
    throw new PaystackRefusal(400, 'Duplicate Transfer Reference', {
      type: 'validation_error',
      code: 'duplicate_reference',
    });
  }
  if (request.amount > desk.state.funds.balance) {
    throw new PaystackRefusal(400, 'Your balance is not enough to fulfil this request', {
      type: 'api_error',
      code: 'insufficient_balance',
    });
  }
  return recipient;
};

/** Settles a queued transfer: transfer.failed (the money back) for the failing account, else transfer.success. */
const settleTransfer = async (state: TSimState, transfer: TTransfer) => {
  transfer.updatedAt = state.now();
  if (transfer.recipient.account_number === FAILING_PAYOUT_ACCOUNT) {
    transfer.status = 'failed';
    state.funds.balance += transfer.amount;
    await state.send('transfer.failed', transferFields(transfer, true));
  } else {
    transfer.status = 'success';
    transfer.transferredAt = state.now();
    await state.send('transfer.success', transferFields(transfer, true));
  }
};

/**
 * POST /transfer: queued as `pending` ("Transfer has been queued"), then transfer.success, or
 * transfer.failed for the simulator's failing account, once the answer is out.
 */
const createTransfer = (desk: TPayoutDesk, ctx: TContext): TAnswer => {
  const { state } = desk;
  const source = requiredString(ctx.body, 'source');
  const amount = amountIn(ctx.body);
  const recipientCode = requiredString(ctx.body, 'recipient');
  const reference = requiredString(ctx.body, 'reference');
  const reason = optionalString(ctx.body, 'reason') ?? null;
  const recipient = checkTransfer(desk, { source, amount, recipientCode, reference });
  state.funds.balance -= amount;
  const at = state.now();
  const transfer: TTransfer = {
    id: state.newId(),
    transfer_code: `TRF_${randomCode(16)}`,
    reference,
    amount,
    reason,
    recipient,
    status: 'pending',
    createdAt: at,
    updatedAt: at,
    transferredAt: null,
  };
  desk.transfers.set(reference, transfer);
  ctx.later.push(() => settleTransfer(state, transfer));
  return ok('Transfer has been queued', {
    transfersessionid: [],
    transfertrials: [],
    ...transferFields(transfer, false),
  });
};

/** GET /transfer/verify/{reference}: the transfer, its recipient in full. */
const verifyTransfer = (desk: TPayoutDesk, ctx: TContext): TAnswer => {
  const transfer = desk.transfers.get(ctx.segments[2] ?? '');
  if (!transfer) throw new PaystackRefusal(404, 'Transfer not found');
  return ok('Transfer retrieved', transferFields(transfer, true));
};

/** GET /transfer: every transfer, newest first, made from `from` to `to`, a page at a time. */
const listTransfers = (desk: TPayoutDesk, ctx: TContext): TAnswer => {
  const within = madeWithin(ctx);
  const listed = [...desk.transfers.values()]
    .reverse()
    .filter((transfer) => within(transfer.createdAt));
  return listPage(
    ctx,
    'Transfers retrieved',
    listed.map((transfer) => transferFields(transfer, true)),
  );
};

/** GET /balance: the integration's NGN balance. */
const fetchBalance = (state: TSimState): TAnswer =>
  ok('Balances retrieved', [{ currency: 'NGN', balance: state.funds.balance }]);

/**
 * A successful payout the recipient's bank sent back: status `reversed`, the amount back in
 * the balance, and transfer.reversed (Transfers docs, "Transfer events").
 */
const reverseTransfer = async (desk: TPayoutDesk, reference: string) => {
  const transfer = desk.transfers.get(reference);
  if (transfer?.status !== 'success') {
    throw new Error(`No successful transfer with the reference ${reference}`);
  }
  transfer.status = 'reversed';
  transfer.updatedAt = desk.state.now();
  desk.state.funds.balance += transfer.amount;
  await desk.state.send('transfer.reversed', transferFields(transfer, true));
};

/** The payouts' routes, and the control that reverses a paid transfer. */
export const payouts = (state: TSimState) => {
  const desk: TPayoutDesk = { state, recipients: new Map(), transfers: new Map() };
  const routes: TRoute[] = [
    { method: 'POST', path: /^\/transferrecipient$/, handle: (ctx) => createRecipient(desk, ctx) },
    { method: 'POST', path: /^\/transfer$/, handle: (ctx) => createTransfer(desk, ctx) },
    {
      method: 'GET',
      path: /^\/transfer\/verify\/[^/]+$/,
      handle: (ctx) => verifyTransfer(desk, ctx),
    },
    { method: 'GET', path: /^\/transfer$/, handle: (ctx) => listTransfers(desk, ctx) },
    { method: 'GET', path: /^\/balance$/, handle: () => fetchBalance(state) },
  ];
  return {
    routes,
    reverseTransfer: (reference: string) => reverseTransfer(desk, reference),
  };
};
