import { createHash } from 'node:crypto';
import { bankByCode } from './banks';
import {
  PaystackRefusal,
  amountIn,
  emailIn,
  optionalObject,
  optionalReference,
  optionalString,
  requiredString,
  type TBody,
} from './request-checks';
import {
  customerObject,
  listPage,
  madeWithin,
  ok,
  randomCode,
  type TAnswer,
  type TContext,
  type TRoute,
  type TSimState,
  type TTransaction,
  type TTransferAccount,
} from './simulator-state';
import { TEST_CARDS, TEST_OTP, UNKNOWN_CARD, passesLuhn, type TCardStep } from './test-cards';

/**
 * The Charge API: card charges through their steps (send_pin, send_otp, send_phone,
 * send_birthday, open_url), pay with transfer, charging a saved authorization, and the checks by
 * reference (GET /charge/{reference}, GET /transaction/verify/{reference}).
 */

/** Paystack's one-time accounts last 30 minutes (support.paystack.com, "Pay with transfer"). */
const TRANSFER_ACCOUNT_LIFETIME_MS = 30 * 60 * 1000;

/** What the Charge API answers while a step is due; display texts as its docs show them. */
const STEP_ANSWERS: Record<
  Exclude<TCardStep, 'three_ds'>,
  { status: string; display_text: string }
> = {
  pin: {
    status: 'send_pin',
    display_text: 'Please enter your 4-digit PIN to authorize this payment',
  },
  otp: { status: 'send_otp', display_text: 'Please send OTP (none will be sent to your phone)' },
  phone: { status: 'send_phone', display_text: 'Please send phone' },
  birthday: { status: 'send_birthday', display_text: 'Please send your birthday' },
};

/** What the Charge API keeps beside the shared state: the charges its one-time accounts and 3-D Secure pages belong to. */
type TChargeDesk = {
  state: TSimState;
  /** One-time accounts by number, and 3-D Secure pages by code, to the charge they belong to. */
  transferAccounts: Map<string, TTransaction>;
  threeDsCodes: Map<string, TTransaction>;
  accountNumbers: { next: number };
};

/** A sender's account when the test names none. */
const DEFAULT_SENDER = {
  accountNumber: '0123456789',
  accountName: 'ADAEZE OKAFOR',
  bankCode: '058',
};

/** Issues the reusable card authorization of a paid card charge; null for a charge without a card. */
const cardAuthorization = (state: TSimState, transaction: TTransaction) => {
  const card = transaction.card;
  if (!card) return null;
  // The same card always carries the same signature (Paystack's way of telling one card from
  // another across authorizations), and a new authorization code on each payment.
  const signature = `SIG_${createHash('sha256').update(card.number).digest('hex').slice(0, 20)}`;
  return state.issueAuthorization(
    { email: transaction.email, channel: 'card', reusable: true },
    {
      bin: card.number.slice(0, 6),
      last4: card.number.slice(-4),
      exp_month: card.expMonth,
      exp_year: card.expYear,
      channel: 'card',
      card_type: card.test.cardType,
      bank: 'TEST BANK',
      country_code: 'NG',
      brand: card.test.brand,
      reusable: true,
      signature,
      account_name: null,
      receiver_bank_account_number: null,
      receiver_bank: null,
    },
  );
};

/** Moves a card charge past its current step: to the next one, or to its outcome. */
const advance = (desk: TChargeDesk, transaction: TTransaction, later: TContext['later']) => {
  const step = transaction.stepsLeft.shift();
  if (step) {
    transaction.nextStep = step;
    if (step === 'three_ds') {
      const code = randomCode(20);
      transaction.threeDs = { code, answer: null };
      desk.threeDsCodes.set(code, transaction);
    }
    return;
  }
  const { state } = desk;
  const outcome = transaction.card?.test.outcome ?? UNKNOWN_CARD.outcome;
  if (outcome.status === 'success') {
    transaction.authorizationCode = cardAuthorization(state, transaction);
    later.push(state.succeed(transaction, 'Approved'));
  } else if (outcome.status === 'failed') {
    state.fail(transaction, outcome.gatewayResponse);
  } else {
    transaction.state = 'pending';
    transaction.nextStep = null;
    transaction.gatewayResponse = 'Transaction is pending';
  }
};

/** A `pending` card charge is decided by the first check by reference. */
const settlePending = (state: TSimState, transaction: TTransaction) => {
  const outcome = transaction.card?.test.outcome;
  if (transaction.state === 'pending' && outcome?.status === 'pending') {
    state.fail(transaction, outcome.thenFailed);
  }
};

/** The Charge API's answer: the step due, or the transaction once decided. */
const chargeAnswer = (state: TSimState, transaction: TTransaction): TAnswer => {
  const reference = transaction.reference;
  if (transaction.state === 'awaiting' && transaction.transferAccount) {
    return ok('Charge attempted', {
      reference,
      status: 'pending_bank_transfer',
      display_text: 'Please make a transfer to the account specified',
      ...transaction.transferAccount,
    });
  }
  const step = transaction.state === 'awaiting' ? transaction.nextStep : null;
  if (step === 'three_ds') {
    return ok('Charge attempted', {
      reference,
      status: 'open_url',
      url: `${state.url}/checkout/3ds/${transaction.threeDs?.code ?? ''}`,
    });
  }
  if (step) return ok('Charge attempted', { reference, ...STEP_ANSWERS[step] });
  if (transaction.state === 'pending') {
    return ok('Charge attempted', { reference, status: 'pending' });
  }
  return ok('Charge attempted', state.transactionFields(transaction));
};

const twoDigits = (value: string) => value.padStart(2, '0');

/** The card of a charge, its number, CVV and expiry checked. */
const readCard = (card: TBody) => {
  const number = requiredString(card, 'number').replace(/\s+/g, '');
  const cvv = requiredString(card, 'cvv');
  const month = requiredString(card, 'expiry_month');
  const year = requiredString(card, 'expiry_year');
  // Paystack's wording for a malformed card is not documented; these say what is wrong.
  if (!/^\d{12,19}$/.test(number) || !passesLuhn(number)) {
    throw new PaystackRefusal(400, 'Invalid card number');
  }
  if (!/^\d{3,4}$/.test(cvv)) throw new PaystackRefusal(400, 'Invalid CVV');
  if (!/^\d{1,2}$/.test(month) || Number(month) < 1 || Number(month) > 12) {
    throw new PaystackRefusal(400, 'Invalid expiry month');
  }
  if (!/^(\d{2}|\d{4})$/.test(year)) throw new PaystackRefusal(400, 'Invalid expiry year');
  const fullYear = year.length === 2 ? `20${year}` : year;
  return { number, expMonth: twoDigits(month), expYear: fullYear };
};

/** Whether a card's expiry month is over by the simulator's clock. */
const expired = (today: Date, expMonth: string, expYear: string) => {
  const year = today.getUTCFullYear();
  const month = today.getUTCMonth() + 1;
  return Number(expYear) < year || (Number(expYear) === year && Number(expMonth) < month);
};

/** Charges an authorization the simulator issued (POST /transaction/charge_authorization, or /charge with one). */
const chargeAuthorization = (state: TSimState, body: TBody, ctx: TContext): TAnswer => {
  const code = requiredString(body, 'authorization_code');
  const email = emailIn(body);
  const amount = amountIn(body);
  const reference = optionalReference(body);
  const record = state.authorizations.get(code);
  // The refusals' wording is assumed: the docs show none for these cases.
  if (!record) throw new PaystackRefusal(400, 'Invalid authorization code');
  if (!record.reusable) throw new PaystackRefusal(400, 'Authorization is not reusable');
  if (record.email.toLowerCase() !== email.toLowerCase()) {
    throw new PaystackRefusal(400, 'Authorization code does not belong to this email');
  }
  const transaction = state.newTransaction({
    reference,
    amount,
    email,
    channel: record.channel,
    metadata: optionalObject(body, 'metadata') ?? body.metadata,
  });
  transaction.authorizationCode = code;
  if (record.declinedWith) {
    state.fail(transaction, record.declinedWith);
  } else if (record.channel === 'direct_debit') {
    // A direct debit is sent to the bank and answered `processing` (Direct Debit docs,
    // "Charge the authorization"); it settles after the answer, with charge.success.
    transaction.state = 'processing';
    transaction.gatewayResponse = 'Transaction in progress';
    ctx.later.push(() => state.succeed(transaction, 'Payment successful')());
  } else {
    ctx.later.push(state.succeed(transaction, 'Approved'));
  }
  return ok('Charge attempted', state.transactionFields(transaction));
};

/** What every new charge names: who pays, how much, under which reference. */
type TChargeFields = {
  email: string;
  amount: number;
  reference: string | undefined;
  metadata: unknown;
};

/** Pay with transfer: a one-time account, open until its expiry, for the charge. */
const openTransferAccount = (
  desk: TChargeDesk,
  fields: TChargeFields,
  bankTransfer: TBody,
): TAnswer => {
  const { state } = desk;
  const requested = optionalString(bankTransfer, 'account_expires_at');
  const expiresAt =
    requested === undefined
      ? state.now().getTime() + TRANSFER_ACCOUNT_LIFETIME_MS
      : Date.parse(requested);
  if (Number.isNaN(expiresAt) || expiresAt <= state.now().getTime()) {
    throw new PaystackRefusal(400, 'account_expires_at must be a date in the future');
  }
  const transaction = state.newTransaction({ ...fields, channel: 'bank_transfer' });
  const account: TTransferAccount = {
    account_name: 'TEST-MANAGED-ACCOUNT',
    account_number: String(desk.accountNumbers.next++),
    bank: { slug: 'test-bank', name: 'Test Bank', id: 24 },
    account_expires_at: new Date(expiresAt).toISOString(),
  };
  transaction.transferAccount = account;
  desk.transferAccounts.set(account.account_number, transaction);
  return chargeAnswer(state, transaction);
};

/** A card charge: refused when expired or its PIN is wrong, else taken to its first step. */
const chargeCard = (desk: TChargeDesk, ctx: TContext, fields: TChargeFields, card: TBody) => {
  const { state } = desk;
  const read = readCard(card);
  const test = TEST_CARDS[read.number] ?? UNKNOWN_CARD;
  const pin = optionalString(ctx.body, 'pin');
  // Charged in the currency asked for, else the integration's own (Charge API `currency`).
  const currency = optionalString(ctx.body, 'currency');
  const transaction = state.newTransaction({
    reference: fields.reference,
    amount: fields.amount,
    currency,
    email: fields.email,
    channel: 'card',
    metadata: fields.metadata,
  });
  transaction.card = { ...read, test };
  transaction.stepsLeft = [...test.steps];
  if (expired(state.now(), read.expMonth, read.expYear)) {
    state.fail(transaction, 'Expired Card');
    return chargeAnswer(state, transaction);
  }
  // A PIN sent with the card takes the place of the send_pin step.
  if (pin !== undefined && transaction.stepsLeft[0] === 'pin') {
    transaction.stepsLeft.shift();
    if (pin !== test.pin) {
      state.fail(transaction, 'Incorrect PIN');
      return chargeAnswer(state, transaction);
    }
  }
  advance(desk, transaction, ctx.later);
  return chargeAnswer(state, transaction);
};

/** POST /charge: an authorization, a transfer account or a card, whichever the body brings. */
const createCharge = (desk: TChargeDesk, ctx: TContext): TAnswer => {
  const { body } = ctx;
  if (body.authorization_code !== undefined) return chargeAuthorization(desk.state, body, ctx);
  const email = emailIn(body);
  const amount = amountIn(body);
  const reference = optionalReference(body);
  const metadata = optionalObject(body, 'metadata') ?? body.metadata;
  const bankTransfer = optionalObject(body, 'bank_transfer');
  const card = optionalObject(body, 'card');
  const fields = { reference, amount, email, metadata };
  if (bankTransfer) return openTransferAccount(desk, fields, bankTransfer);
  if (!card) {
    // The simulator takes cards, pay with transfer and authorizations; the wording is assumed.
    throw new PaystackRefusal(400, 'Please provide a card, bank_transfer or authorization_code');
  }
  return chargeCard(desk, ctx, fields, card);
};

const STEP_FIELDS: Record<Exclude<TCardStep, 'three_ds'>, string> = {
  pin: 'pin',
  otp: 'otp',
  phone: 'phone',
  birthday: 'birthday',
};

/** POST /charge/submit_{step}: the payer's PIN, OTP, phone or birthday for the step due. */
const submitStep =
  (desk: TChargeDesk, step: Exclude<TCardStep, 'three_ds'>) =>
  (ctx: TContext): TAnswer => {
    const { state } = desk;
    const value = requiredString(ctx.body, STEP_FIELDS[step]);
    const reference = requiredString(ctx.body, 'reference');
    const transaction = state.transactions.get(reference);
    // "Transaction reference is invalid" is the documented 400 of every submit endpoint.
    if (!transaction) throw new PaystackRefusal(400, 'Transaction reference is invalid');
    if (transaction.state !== 'awaiting' || transaction.nextStep !== step) {
      // Undocumented: a step the charge is not waiting for is refused without effect.
      throw new PaystackRefusal(400, `This transaction is not waiting for ${STEP_FIELDS[step]}`);
    }
    if (step === 'pin' && value !== transaction.card?.test.pin) {
      state.fail(transaction, 'Incorrect PIN');
    } else if (step === 'otp' && value !== TEST_OTP) {
      state.fail(transaction, 'Incorrect OTP');
    } else if (step === 'phone' && !/^(\+?234|0)\d{10}$/.test(value)) {
      throw new PaystackRefusal(400, 'Invalid phone number');
    } else if (step === 'birthday' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
      throw new PaystackRefusal(400, 'Invalid birthday. Use the format YYYY-MM-DD');
    } else {
      advance(desk, transaction, ctx.later);
    }
    return chargeAnswer(state, transaction);
  };

/** The 404 Paystack's verify documents for an unknown reference. */
const referenceNotFound = () => new PaystackRefusal(404, 'Transaction reference not found');

/** GET /charge/{reference}: the Charge API's answer for the charge now. */
const checkCharge = (state: TSimState, ctx: TContext): TAnswer => {
  const transaction = state.transactions.get(ctx.segments[1] ?? '');
  if (!transaction) throw referenceNotFound();
  settlePending(state, transaction);
  return chargeAnswer(state, transaction);
};

/** GET /transaction/verify/{reference}: the transaction as verify shows it. */
const verifyTransaction = (state: TSimState, ctx: TContext): TAnswer => {
  const transaction = state.transactions.get(ctx.segments[2] ?? '');
  if (!transaction) throw referenceNotFound();
  settlePending(state, transaction);
  return ok('Verification successful', state.transactionFields(transaction));
};

/**
 * GET /transaction: every transaction, newest first, `status` (success, failed, abandoned,
 * reversed…) and `from`/`to` (when it was made) narrowing it, a page at a time (the settlement
 * report reads it).
 */
const listTransactions = (state: TSimState, ctx: TContext): TAnswer => {
  const status = ctx.query.get('status');
  const within = madeWithin(ctx);
  const listed = [...state.transactions.values()]
    .reverse()
    .filter((transaction) => within(transaction.createdAt))
    .map((transaction) => {
      settlePending(state, transaction);
      return state.transactionFields(transaction);
    })
    .filter((fields) => status === null || fields.status === status);
  return listPage(ctx, 'Transactions retrieved', listed);
};

/** The payer's answer on the 3-D Secure page; approval pays and returns the notice to send. */
const applyThreeDsAnswer = (desk: TChargeDesk, transaction: TTransaction, approved: boolean) => {
  if (
    transaction.state !== 'awaiting' ||
    transaction.nextStep !== 'three_ds' ||
    !transaction.threeDs
  ) {
    throw new Error(`The charge ${transaction.reference} is not waiting for a 3-D Secure answer`);
  }
  transaction.threeDs.answer = approved ? 'approved' : 'declined';
  const later: TContext['later'] = [];
  if (approved) advance(desk, transaction, later);
  // The decline's gateway response is not documented; the notice is none (no failure event).
  else desk.state.fail(transaction, 'Declined');
  return later;
};

/** The documented answer to a wrong amount (Pay with Transfer docs): the money goes back. */
const rejectTransfer = async (state: TSimState, transaction: TTransaction, amount: number) => {
  const customer = state.customerFor(transaction.email);
  await state.send('bank.transfer.rejected', {
    bank_transfer: {
      amount: String(amount),
      message: 'incorrect amount sent',
      message_type: 'INCORRECT_AMOUNT',
      transaction_id: String(transaction.id),
    },
    customer: customerObject(customer),
  });
};

/** Issues the one-off authorization of a paid transfer, showing its sender. */
const transferAuthorization = (
  state: TSimState,
  transaction: TTransaction,
  account: TTransferAccount,
  payer: typeof DEFAULT_SENDER,
) => {
  const paidAt = state.now();
  const lastThree = payer.accountNumber.slice(-3);
  // Paystack masks the sender's account number and shows the rest (Pay with Transfer docs,
  // charge.success): "sender_bank_account_number": "XXXXXXX553".
  return state.issueAuthorization(
    { email: transaction.email, channel: 'bank_transfer', reusable: false },
    {
      bin: `${payer.accountNumber.slice(0, 3)}XXX`,
      last4: `X${lastThree}`,
      exp_month: String(paidAt.getUTCMonth() + 1).padStart(2, '0'),
      exp_year: String(paidAt.getUTCFullYear()),
      channel: 'bank_transfer',
      card_type: 'transfer',
      bank: null,
      country_code: 'NG',
      brand: 'Managed Account',
      reusable: false,
      signature: null,
      account_name: null,
      sender_country: 'NG',
      sender_bank: bankByCode(payer.bankCode)?.name ?? null,
      sender_bank_account_number: `${'X'.repeat(Math.max(payer.accountNumber.length - 3, 0))}${lastThree}`,
      sender_name: payer.accountName,
      narration: `Transfer to ${account.account_name}`,
    },
  );
};

/**
 * Money into a one-time account: the right amount, before expiry, pays the charge (charge.success
 * with the sender); a wrong amount is sent back (bank.transfer.rejected); after expiry, or into
 * an account already paid, Paystack sends it back and tells the merchant nothing.
 */
const payTransfer = async (
  desk: TChargeDesk,
  accountNumber: string,
  amount: number,
  from?: { accountNumber: string; accountName: string; bankCode: string },
) => {
  const { state } = desk;
  const transaction = desk.transferAccounts.get(accountNumber);
  const account = transaction?.transferAccount;
  if (!transaction || !account) throw new Error(`No one-time account ${accountNumber} was issued`);
  const payer = from ?? DEFAULT_SENDER;
  // Paid already, or expired: Paystack sends the money back and tells the merchant nothing.
  if (transaction.state !== 'awaiting') return;
  if (state.now().getTime() > Date.parse(account.account_expires_at)) return;
  if (amount !== transaction.amount) {
    await rejectTransfer(state, transaction, amount);
    return;
  }
  transaction.authorizationCode = transferAuthorization(state, transaction, account, payer);
  await state.succeed(transaction, 'Approved')();
};

/** The Charge API's routes and the transaction checks, in the order they are matched. */
const chargeRoutes = (desk: TChargeDesk): TRoute[] => {
  const { state } = desk;
  return [
    { method: 'POST', path: /^\/charge$/, handle: (ctx) => createCharge(desk, ctx) },
    { method: 'POST', path: /^\/charge\/submit_pin$/, handle: submitStep(desk, 'pin') },
    { method: 'POST', path: /^\/charge\/submit_otp$/, handle: submitStep(desk, 'otp') },
    { method: 'POST', path: /^\/charge\/submit_phone$/, handle: submitStep(desk, 'phone') },
    { method: 'POST', path: /^\/charge\/submit_birthday$/, handle: submitStep(desk, 'birthday') },
    { method: 'GET', path: /^\/charge\/[^/]+$/, handle: (ctx) => checkCharge(state, ctx) },
    {
      method: 'GET',
      path: /^\/transaction\/verify\/[^/]+$/,
      handle: (ctx) => verifyTransaction(state, ctx),
    },
    { method: 'GET', path: /^\/transaction$/, handle: (ctx) => listTransactions(state, ctx) },
    {
      method: 'POST',
      path: /^\/transaction\/charge_authorization$/,
      handle: (ctx) => chargeAuthorization(state, ctx.body, ctx),
    },
  ];
};

/** The Charge API's routes, and the controls of its payer's side (3-D Secure, transfers, declines). */
export const charges = (state: TSimState) => {
  const desk: TChargeDesk = {
    state,
    transferAccounts: new Map(),
    threeDsCodes: new Map(),
    accountNumbers: { next: 1_260_000_001 },
  };
  return {
    routes: chargeRoutes(desk),
    /** The charge whose 3-D Secure page has this code. */
    threeDsPage: (code: string) => desk.threeDsCodes.get(code),
    applyThreeDsAnswer: (transaction: TTransaction, approved: boolean) =>
      applyThreeDsAnswer(desk, transaction, approved),
    payTransfer: (
      accountNumber: string,
      amount: number,
      from?: { accountNumber: string; accountName: string; bankCode: string },
    ) => payTransfer(desk, accountNumber, amount, from),
    declineAuthorization: (authorizationCode: string, gatewayResponse = 'Insufficient Funds') => {
      const record = state.authorizations.get(authorizationCode);
      if (!record) throw new Error(`No authorization ${authorizationCode} was issued`);
      record.declinedWith = gatewayResponse;
    },
  };
};
