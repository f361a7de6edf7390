import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BANKS,
  FAILING_PAYOUT_ACCOUNT,
  bankByCode,
  resolveAccountName,
  type TSimBank,
} from './banks';
import { noticeSender, type TNoticeAttempt } from './notices';
import { closePage, mandatePage, notFoundPage, threeDsPage } from './pages';
import {
  PaystackRefusal,
  amountIn,
  duplicateReference,
  emailIn,
  optionalAmount,
  optionalObject,
  optionalReference,
  optionalString,
  parseBody,
  requiredString,
  type TBody,
} from './request-checks';
import {
  TEST_CARDS,
  TEST_OTP,
  UNKNOWN_CARD,
  passesLuhn,
  type TCardStep,
  type TTestCard,
} from './test-cards';

/**
 * A Paystack stand-in for tests and local runs, written from Paystack's OpenAPI description
 * (PaystackOSS/openapi) and its docs: the Charge API (cards with PIN/OTP/phone/birthday/3-D Secure
 * steps, pay with transfer), charging a saved authorization, verify, banks, refunds, transfers
 * (payouts), direct-debit mandates, and signed notices (webhooks) to one URL. State lives in
 * memory and dies with close(). README.md beside this file lists the test cards and controls.
 */

export type TPaystackSimulator = {
  /** e.g. http://127.0.0.1:PORT (the adapter's PAYSTACK_BASE_URL) */
  url: string;
  /** The sk_test_… it accepts. */
  secretKey: string;
  close(): Promise<void>;
  /** Every API request it got: method, path (with its query), body (parsed), whether its bearer was right. */
  requests: Array<{ method: string; path: string; body: unknown; authorized: boolean }>;
  /** Every notice delivery attempt (a redelivery is another entry): event, body, signature, our answer's status. */
  notices: Array<{ event: string; body: string; signature: string; status: number | null }>;
  /**
   * Pays into a pay-with-transfer account it issued. The right amount, before the account
   * expires: charge.success (channel bank_transfer). A wrong amount: bank.transfer.rejected, and
   * the charge stays unpaid. After expiry, or into an account already paid: nothing (Paystack
   * sends the money back to the sender). Resolves once the notice's first delivery was answered.
   */
  payTransfer(
    accountNumber: string,
    amount: number,
    sender?: { accountNumber: string; accountName: string; bankCode: string },
  ): Promise<void>;
  /** The payer's answer on the 3-D Secure page (open_url) of a charge; approval sends charge.success. */
  answerThreeDs(reference: string, approved: boolean): Promise<void>;
  /** The next API request to this path takes effect but its answer is lost (the socket is destroyed). */
  loseNextAnswer(pathPrefix: string): void;
  /** The next API request to this path answers this status (500/503…) without effect. */
  failNext(pathPrefix: string, status: number): void;
  /** The payer's answer on the bank's page of a direct-debit mandate (its redirect_url). */
  answerMandate(reference: string, approved: boolean): Promise<void>;
  /** Later charges of this authorization fail with this gateway response (e.g. 'Insufficient Funds'). */
  declineAuthorization(authorizationCode: string, gatewayResponse?: string): void;
  /** The next refund created ends failed (refund.failed) instead of processed. */
  failNextRefund(): void;
  /** Resolves when every notice has been delivered or given up. */
  idle(): Promise<void>;
};

export type TPaystackSimulatorOptions = {
  secretKey?: string;
  /** Where notices go; null or absent sends none. */
  noticeUrl?: string | null;
  port?: number;
  clock?: () => Date;
  /** Waits before each redelivery of a notice our server did not take (2xx); default 3 tries. */
  noticeRetryDelaysMs?: number[];
  /** The integration's balance in kobo, which payouts draw on; charges add to it. */
  balance?: number;
};

type TCustomer = { id: number; customer_code: string; email: string };

type TAuthorizationRecord = {
  /** The authorization object as Paystack shows it. */
  fields: Record<string, unknown>;
  email: string;
  channel: 'card' | 'bank_transfer' | 'direct_debit';
  reusable: boolean;
  declinedWith: string | null;
};

type TTransferAccount = {
  account_name: string;
  account_number: string;
  bank: { slug: string; name: string; id: number };
  account_expires_at: string;
};

type TTransaction = {
  id: number;
  reference: string;
  amount: number;
  email: string;
  channel: 'card' | 'bank_transfer' | 'direct_debit';
  metadata: unknown;
  createdAt: Date;
  paidAt: Date | null;
  /**
   * awaiting: a step of the payer's is due (nextStep), or money into the transfer account.
   * processing: a direct debit sent to the bank. pending: answered pending, decided at the next check.
   */
  state: 'awaiting' | 'processing' | 'pending' | 'success' | 'failed';
  nextStep: TCardStep | null;
  stepsLeft: TCardStep[];
  card: { number: string; expMonth: string; expYear: string; test: TTestCard } | null;
  threeDs: { code: string; answer: 'approved' | 'declined' | null } | null;
  transferAccount: TTransferAccount | null;
  authorizationCode: string | null;
  gatewayResponse: string;
  message: string | null;
  fees: number;
  /** Kobo refunded or being refunded (a failed refund gives its amount back). */
  refunded: number;
  /** Kobo whose refunds were processed. */
  refundedProcessed: number;
};

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
  status: 'pending' | 'success' | 'failed';
  createdAt: Date;
  updatedAt: Date;
  transferredAt: Date | null;
};

type TMandate = {
  reference: string;
  accessCode: string;
  email: string;
  callbackUrl: string | null;
  account: { number: string; bankCode: string } | null;
  answer: 'approved' | 'declined' | null;
  authorizationCode: string | null;
};

type TAnswer = { status: number; body: unknown };
type TPageAnswer = { status: number; html?: string; location?: string };

type TContext = {
  method: string;
  segments: string[];
  query: URLSearchParams;
  body: TBody;
  /** Work to run once the answer is out (notices), in order. */
  later: Array<() => Promise<void>>;
};

const ok = (message: string, data: unknown, extra: Record<string, unknown> = {}): TAnswer => ({
  status: 200,
  body: { status: true, message, data, ...extra },
});

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';
const randomCode = (length: number) =>
  Array.from(randomBytes(length), (byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join('');

/**
 * Paystack's local card and transfer fee: 1.5%, plus ₦100 from ₦2,500, capped at ₦2,000
 * (paystack.com/pricing). Charged on every successful payment and taken from the balance.
 */
const feeOf = (amount: number) =>
  Math.min(Math.round(amount * 0.015) + (amount >= 250_000 ? 10_000 : 0), 200_000);

const DEFAULT_SECRET_KEY = 'sk_test_simulator0000000000000000000000000';
/** Paystack's one-time accounts last 30 minutes (support.paystack.com, "Pay with transfer"). */
const TRANSFER_ACCOUNT_LIFETIME_MS = 30 * 60 * 1000;

export async function startPaystackSimulator(
  options: TPaystackSimulatorOptions = {},
): Promise<TPaystackSimulator> {
  const secretKey = options.secretKey ?? DEFAULT_SECRET_KEY;
  const now = options.clock ?? (() => new Date());
  const requests: TPaystackSimulator['requests'] = [];
  const notices: TNoticeAttempt[] = [];
  const sender = noticeSender({
    url: options.noticeUrl ?? null,
    secretKey,
    retryDelaysMs: options.noticeRetryDelaysMs ?? [50, 200, 500],
    record: (attempt) => notices.push(attempt),
  });

  const transactions = new Map<string, TTransaction>();
  const transactionsById = new Map<number, TTransaction>();
  const transferAccounts = new Map<string, TTransaction>();
  const customers = new Map<string, TCustomer>();
  const authorizations = new Map<string, TAuthorizationRecord>();
  const refunds = new Map<number, TRefund>();
  const recipients = new Map<string, TRecipient>();
  const transfers = new Map<string, TTransfer>();
  const mandates = new Map<string, TMandate>();
  const mandatesByAccessCode = new Map<string, TMandate>();
  const threeDsCodes = new Map<string, TTransaction>();
  const lostAnswers: Array<{ prefix: string }> = [];
  const failures: Array<{ prefix: string; status: number }> = [];
  let balance = options.balance ?? 1_000_000_000;
  let nextId = 1_000_001;
  let nextAccountNumber = 1_260_000_001;
  let failNextRefund = false;
  let url = '';

  const iso = (date: Date | null) => (date ? date.toISOString() : null);

  const customerFor = (email: string) => {
    const known = customers.get(email.toLowerCase());
    if (known) return known;
    const customer = { id: nextId++, customer_code: `CUS_${randomCode(15)}`, email };
    customers.set(email.toLowerCase(), customer);
    return customer;
  };

  const customerFields = (email: string) => {
    const customer = customerFor(email);
    return {
      id: customer.id,
      first_name: null,
      last_name: null,
      email: customer.email,
      customer_code: customer.customer_code,
      phone: null,
      metadata: null,
      risk_action: 'default',
      international_format_phone: null,
    };
  };

  /** Paystack's "verify" status of a transaction. */
  const transactionStatus = (transaction: TTransaction) => {
    if (transaction.state === 'success') {
      return transaction.refundedProcessed >= transaction.amount ? 'reversed' : 'success';
    }
    if (transaction.state === 'awaiting') {
      // A one-time account that expired unpaid: Paystack calls the transaction abandoned.
      const account = transaction.transferAccount;
      if (account && now().getTime() > Date.parse(account.account_expires_at)) return 'abandoned';
      // The docs do not say what verify answers mid-way through the payer's steps; Paystack's
      // statuses include `ongoing` for a payment the customer is still completing.
      return 'ongoing';
    }
    return transaction.state;
  };

  const transactionFields = (transaction: TTransaction) => {
    const authorization = transaction.authorizationCode
      ? (authorizations.get(transaction.authorizationCode)?.fields ?? {})
      : {};
    return {
      id: transaction.id,
      domain: 'test',
      status: transactionStatus(transaction),
      reference: transaction.reference,
      receipt_number: null,
      amount: transaction.amount,
      message: transaction.message,
      gateway_response: transaction.gatewayResponse,
      paid_at: iso(transaction.paidAt),
      created_at: iso(transaction.createdAt),
      channel: transaction.channel,
      currency: 'NGN',
      ip_address: '127.0.0.1',
      metadata: transaction.metadata ?? '',
      log: null,
      fees: transaction.state === 'success' ? transaction.fees : null,
      fees_split: null,
      authorization,
      customer: customerFields(transaction.email),
      plan: null,
      split: {},
      order_id: null,
      paidAt: iso(transaction.paidAt),
      createdAt: iso(transaction.createdAt),
      requested_amount: transaction.amount,
      pos_transaction_data: null,
      source: null,
      fees_breakdown: null,
      connect: null,
      transaction_date: iso(transaction.createdAt),
      plan_object: {},
      subaccount: {},
    };
  };

  const newTransaction = (input: {
    reference: string | undefined;
    amount: number;
    email: string;
    channel: TTransaction['channel'];
    metadata: unknown;
  }): TTransaction => {
    const reference = input.reference ?? randomCode(15);
    if (transactions.has(reference)) throw duplicateReference();
    customerFor(input.email);
    const transaction: TTransaction = {
      id: nextId++,
      reference,
      amount: input.amount,
      email: input.email,
      channel: input.channel,
      metadata: input.metadata,
      createdAt: now(),
      paidAt: null,
      state: 'awaiting',
      nextStep: null,
      stepsLeft: [],
      card: null,
      threeDs: null,
      transferAccount: null,
      authorizationCode: null,
      gatewayResponse: 'Transaction in progress',
      message: null,
      fees: 0,
      refunded: 0,
      refundedProcessed: 0,
    };
    transactions.set(reference, transaction);
    transactionsById.set(transaction.id, transaction);
    return transaction;
  };

  const issueAuthorization = (
    record: Omit<TAuthorizationRecord, 'fields' | 'declinedWith'>,
    fields: Record<string, unknown>,
  ) => {
    const code = `AUTH_${randomCode(10)}`;
    authorizations.set(code, {
      ...record,
      declinedWith: null,
      fields: { authorization_code: code, ...fields },
    });
    return code;
  };

  const cardAuthorization = (transaction: TTransaction) => {
    const card = transaction.card;
    if (!card) return null;
    // The same card always carries the same signature (Paystack's way of telling one card from
    // another across authorizations), and a new authorization code on each payment.
    const signature = `SIG_${createHash('sha256').update(card.number).digest('hex').slice(0, 20)}`;
    return issueAuthorization(
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

  /** Marks the transaction paid, credits the balance and sends charge.success. */
  const succeed = (transaction: TTransaction, gatewayResponse: string) => {
    transaction.state = 'success';
    transaction.nextStep = null;
    transaction.paidAt = now();
    transaction.gatewayResponse = gatewayResponse;
    transaction.fees = feeOf(transaction.amount);
    balance += transaction.amount - transaction.fees;
    return () => sender.send('charge.success', transactionFields(transaction));
  };

  /** A failed charge sends no notice: Paystack documents no event for it. */
  const fail = (transaction: TTransaction, gatewayResponse: string) => {
    transaction.state = 'failed';
    transaction.nextStep = null;
    transaction.gatewayResponse = gatewayResponse;
    transaction.message = gatewayResponse;
  };

  /** Moves a card charge past its current step: to the next one, or to its outcome. */
  const advance = (transaction: TTransaction, later: TContext['later']) => {
    const step = transaction.stepsLeft.shift();
    if (step) {
      transaction.nextStep = step;
      if (step === 'three_ds') {
        const code = randomCode(20);
        transaction.threeDs = { code, answer: null };
        threeDsCodes.set(code, transaction);
      }
      return;
    }
    const outcome = transaction.card?.test.outcome ?? UNKNOWN_CARD.outcome;
    if (outcome.status === 'success') {
      transaction.authorizationCode = cardAuthorization(transaction);
      later.push(succeed(transaction, 'Approved'));
    } else if (outcome.status === 'failed') {
      fail(transaction, outcome.gatewayResponse);
    } else {
      transaction.state = 'pending';
      transaction.nextStep = null;
      transaction.gatewayResponse = 'Transaction is pending';
    }
  };

  /** A `pending` card charge is decided by the first check by reference. */
  const settlePending = (transaction: TTransaction) => {
    const outcome = transaction.card?.test.outcome;
    if (transaction.state === 'pending' && outcome?.status === 'pending') {
      fail(transaction, outcome.thenFailed);
    }
  };

  /** The Charge API's answer: the step due, or the transaction once decided. */
  const chargeAnswer = (transaction: TTransaction): TAnswer => {
    const reference = transaction.reference;
    if (transaction.state === 'awaiting' && transaction.transferAccount) {
      return ok('Charge attempted', {
        reference,
        status: 'pending_bank_transfer',
        display_text: 'Please make a transfer to the account specified',
        ...transaction.transferAccount,
      });
    }
    if (transaction.state === 'awaiting') {
      switch (transaction.nextStep) {
        case 'pin':
          return ok('Charge attempted', {
            reference,
            status: 'send_pin',
            display_text: 'Please enter your 4-digit PIN to authorize this payment',
          });
        case 'otp':
          return ok('Charge attempted', {
            reference,
            status: 'send_otp',
            display_text: 'Please send OTP (none will be sent to your phone)',
          });
        case 'phone':
          return ok('Charge attempted', {
            reference,
            status: 'send_phone',
            display_text: 'Please send phone',
          });
        case 'birthday':
          return ok('Charge attempted', {
            reference,
            status: 'send_birthday',
            display_text: 'Please send your birthday',
          });
        case 'three_ds':
          return ok('Charge attempted', {
            reference,
            status: 'open_url',
            url: `${url}/checkout/3ds/${transaction.threeDs?.code ?? ''}`,
          });
        default:
          break;
      }
    }
    if (transaction.state === 'pending') {
      return ok('Charge attempted', { reference, status: 'pending' });
    }
    return ok('Charge attempted', transactionFields(transaction));
  };

  const twoDigits = (value: string) => value.padStart(2, '0');

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

  const expired = (expMonth: string, expYear: string) => {
    const today = now();
    const year = today.getUTCFullYear();
    const month = today.getUTCMonth() + 1;
    return Number(expYear) < year || (Number(expYear) === year && Number(expMonth) < month);
  };

  /** Charges an authorization the simulator issued (POST /transaction/charge_authorization, or /charge with one). */
  const chargeAuthorization = (body: TBody, ctx: TContext): TAnswer => {
    const code = requiredString(body, 'authorization_code');
    const email = emailIn(body);
    const amount = amountIn(body);
    const reference = optionalReference(body);
    const record = authorizations.get(code);
    // The refusals' wording is assumed: the docs show none for these cases.
    if (!record) throw new PaystackRefusal(400, 'Invalid authorization code');
    if (!record.reusable) throw new PaystackRefusal(400, 'Authorization is not reusable');
    if (record.email.toLowerCase() !== email.toLowerCase()) {
      throw new PaystackRefusal(400, 'Authorization code does not belong to this email');
    }
    const transaction = newTransaction({
      reference,
      amount,
      email,
      channel: record.channel,
      metadata: optionalObject(body, 'metadata') ?? body.metadata,
    });
    transaction.authorizationCode = code;
    if (record.declinedWith) {
      fail(transaction, record.declinedWith);
    } else if (record.channel === 'direct_debit') {
      // A direct debit is sent to the bank and answered `processing` (Direct Debit docs,
      // "Charge the authorization"); it settles after the answer, with charge.success.
      transaction.state = 'processing';
      transaction.gatewayResponse = 'Transaction in progress';
      ctx.later.push(() => succeed(transaction, 'Payment successful')());
    } else {
      ctx.later.push(succeed(transaction, 'Approved'));
    }
    return ok('Charge attempted', transactionFields(transaction));
  };

  const createCharge = (ctx: TContext): TAnswer => {
    const { body } = ctx;
    if (body.authorization_code !== undefined) return chargeAuthorization(body, ctx);
    const email = emailIn(body);
    const amount = amountIn(body);
    const reference = optionalReference(body);
    const metadata = optionalObject(body, 'metadata') ?? body.metadata;
    const bankTransfer = optionalObject(body, 'bank_transfer');
    const card = optionalObject(body, 'card');
    if (bankTransfer) {
      const requested = optionalString(bankTransfer, 'account_expires_at');
      const expiresAt =
        requested === undefined
          ? now().getTime() + TRANSFER_ACCOUNT_LIFETIME_MS
          : Date.parse(requested);
      if (Number.isNaN(expiresAt) || expiresAt <= now().getTime()) {
        throw new PaystackRefusal(400, 'account_expires_at must be a date in the future');
      }
      const transaction = newTransaction({
        reference,
        amount,
        email,
        channel: 'bank_transfer',
        metadata,
      });
      const account: TTransferAccount = {
        account_name: 'TEST-MANAGED-ACCOUNT',
        account_number: String(nextAccountNumber++),
        bank: { slug: 'test-bank', name: 'Test Bank', id: 24 },
        account_expires_at: new Date(expiresAt).toISOString(),
      };
      transaction.transferAccount = account;
      transferAccounts.set(account.account_number, transaction);
      return chargeAnswer(transaction);
    }
    if (!card) {
      // The simulator takes cards, pay with transfer and authorizations; the wording is assumed.
      throw new PaystackRefusal(400, 'Please provide a card, bank_transfer or authorization_code');
    }
    const read = readCard(card);
    const test = TEST_CARDS[read.number] ?? UNKNOWN_CARD;
    const pin = optionalString(body, 'pin');
    const transaction = newTransaction({ reference, amount, email, channel: 'card', metadata });
    transaction.card = { ...read, test };
    transaction.stepsLeft = [...test.steps];
    if (expired(read.expMonth, read.expYear)) {
      fail(transaction, 'Expired Card');
      return chargeAnswer(transaction);
    }
    // A PIN sent with the card takes the place of the send_pin step.
    if (pin !== undefined && transaction.stepsLeft[0] === 'pin') {
      transaction.stepsLeft.shift();
      if (pin !== test.pin) {
        fail(transaction, 'Incorrect PIN');
        return chargeAnswer(transaction);
      }
    }
    advance(transaction, ctx.later);
    return chargeAnswer(transaction);
  };

  const STEP_FIELDS: Record<Exclude<TCardStep, 'three_ds'>, string> = {
    pin: 'pin',
    otp: 'otp',
    phone: 'phone',
    birthday: 'birthday',
  };

  const submitStep =
    (step: Exclude<TCardStep, 'three_ds'>) =>
    (ctx: TContext): TAnswer => {
      const value = requiredString(ctx.body, STEP_FIELDS[step]);
      const reference = requiredString(ctx.body, 'reference');
      const transaction = transactions.get(reference);
      // "Transaction reference is invalid" is the documented 400 of every submit endpoint.
      if (!transaction) throw new PaystackRefusal(400, 'Transaction reference is invalid');
      if (transaction.state !== 'awaiting' || transaction.nextStep !== step) {
        // Undocumented: a step the charge is not waiting for is refused without effect.
        throw new PaystackRefusal(400, `This transaction is not waiting for ${STEP_FIELDS[step]}`);
      }
      if (step === 'pin' && value !== transaction.card?.test.pin) {
        fail(transaction, 'Incorrect PIN');
      } else if (step === 'otp' && value !== TEST_OTP) {
        fail(transaction, 'Incorrect OTP');
      } else if (step === 'phone' && !/^(\+?234|0)\d{10}$/.test(value)) {
        throw new PaystackRefusal(400, 'Invalid phone number');
      } else if (step === 'birthday' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
        throw new PaystackRefusal(400, 'Invalid birthday. Use the format YYYY-MM-DD');
      } else {
        advance(transaction, ctx.later);
      }
      return chargeAnswer(transaction);
    };

  /** The 404 Paystack's verify documents for an unknown reference. */
  const referenceNotFound = () => new PaystackRefusal(404, 'Transaction reference not found');

  const checkCharge = (ctx: TContext): TAnswer => {
    const transaction = transactions.get(ctx.segments[1] ?? '');
    if (!transaction) throw referenceNotFound();
    settlePending(transaction);
    return chargeAnswer(transaction);
  };

  const verifyTransaction = (ctx: TContext): TAnswer => {
    const transaction = transactions.get(ctx.segments[2] ?? '');
    if (!transaction) throw referenceNotFound();
    settlePending(transaction);
    return ok('Verification successful', transactionFields(transaction));
  };

  const listBanks = (ctx: TContext): TAnswer => {
    const country = (ctx.query.get('country') ?? 'nigeria').toLowerCase();
    const banks = country === 'nigeria' ? BANKS : [];
    return ok(
      'Banks retrieved',
      banks.map((bank) => ({
        name: bank.name,
        slug: bank.slug,
        code: bank.code,
        longcode: '',
        gateway: null,
        pay_with_bank: false,
        active: true,
        is_deleted: false,
        country: 'Nigeria',
        currency: 'NGN',
        type: 'nuban',
        id: bank.id,
        createdAt: '2016-07-14T10:04:29.000Z',
        updatedAt: '2020-02-18T08:06:44.000Z',
      })),
    );
  };

  const resolveAccount = (ctx: TContext): TAnswer => {
    const accountNumber = ctx.query.get('account_number') ?? '';
    const bankCode = ctx.query.get('bank_code') ?? '';
    const name = resolveAccountName(bankCode, accountNumber);
    const bank = bankByCode(bankCode);
    if (!name || !bank) {
      throw new PaystackRefusal(
        422,
        'Could not resolve account name. Check parameters or try again.',
      );
    }
    return ok('Account number resolved', {
      account_number: accountNumber,
      account_name: name,
      bank_id: bank.id,
    });
  };

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

  const findTransaction = (key: string) => {
    const byReference = transactions.get(key);
    if (byReference) return byReference;
    return /^\d+$/.test(key) ? transactionsById.get(Number(key)) : undefined;
  };

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
      id: nextId++,
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
      fails: failNextRefund,
    };
    failNextRefund = false;
    refunds.set(refund.id, refund);
    ctx.later.push(async () => {
      await sender.send('refund.pending', refundNotice(refund));
      refund.status = 'processing';
      refund.updatedAt = now();
      await sender.send('refund.processing', refundNotice(refund));
      refund.updatedAt = now();
      if (refund.fails) {
        refund.status = 'failed';
        transaction.refunded -= refund.amount;
        await sender.send('refund.failed', refundNotice(refund));
      } else {
        refund.status = 'processed';
        refund.refundedAt = now();
        transaction.refundedProcessed += refund.amount;
        balance -= refund.amount;
        await sender.send('refund.processed', refundNotice(refund));
      }
    });
    const { transaction: _id, ...fields } = refundFields(refund);
    return ok('Refund has been queued for processing', {
      transaction: transactionFields(transaction),
      ...fields,
    });
  };

  const fetchRefund = (ctx: TContext): TAnswer => {
    const refund = refunds.get(Number(ctx.segments[1]));
    if (!refund) throw new PaystackRefusal(404, 'Refund not found');
    return ok('Refund retrieved', refundFields(refund));
  };

  const listRefunds = (ctx: TContext): TAnswer => {
    const key = ctx.query.get('transaction');
    const transaction = key === null ? undefined : findTransaction(key);
    const found = [...refunds.values()].filter(
      (refund) => key === null || refund.transaction === transaction,
    );
    return ok('Refunds retrieved', found.map(refundFields), {
      meta: { total: found.length, skipped: 0, perPage: 50, page: 1, pageCount: 1 },
    });
  };

  const recipientFields = (recipient: TRecipient) => ({
    active: true,
    createdAt: iso(recipient.createdAt),
    currency: recipient.currency,
    description: null,
    domain: 'test',
    email: null,
    id: recipient.id,
    integration: 100_001,
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

  const createRecipient = (ctx: TContext): TAnswer => {
    const type = requiredString(ctx.body, 'type');
    const name = requiredString(ctx.body, 'name');
    const accountNumber = requiredString(ctx.body, 'account_number');
    const bankCode = requiredString(ctx.body, 'bank_code');
    const currency = optionalString(ctx.body, 'currency') ?? 'NGN';
    // Only NUBAN (Nigerian bank account) recipients are simulated; the wording is assumed.
    if (type !== 'nuban') throw new PaystackRefusal(400, 'Recipient type is not supported');
    const bank = bankByCode(bankCode);
    if (!bank) throw new PaystackRefusal(400, 'Invalid bank code');
    if (!/^\d{10}$/.test(accountNumber))
      throw new PaystackRefusal(400, 'Account number is invalid');
    // Paystack answers an existing recipient (same account at the same bank) instead of a new one.
    const existing = [...recipients.values()].find(
      (recipient) => recipient.account_number === accountNumber && recipient.bank.code === bankCode,
    );
    if (existing) return ok('Transfer recipient created successfully', recipientFields(existing));
    const recipient: TRecipient = {
      id: nextId++,
      recipient_code: `RCP_${randomCode(15)}`,
      name,
      type: 'nuban',
      currency,
      account_number: accountNumber,
      account_name: resolveAccountName(bankCode, accountNumber),
      bank,
      createdAt: now(),
    };
    recipients.set(recipient.recipient_code, recipient);
    return ok('Transfer recipient created successfully', recipientFields(recipient));
  };

  const transferFields = (transfer: TTransfer, recipientAsObject: boolean) => ({
    amount: transfer.amount,
    createdAt: iso(transfer.createdAt),
    currency: 'NGN',
    domain: 'test',
    failures: null,
    id: transfer.id,
    integration: 100_001,
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

  /**
   * POST /transfer: queued as `pending` ("Transfer has been queued"), then transfer.success, or
   * transfer.failed for the simulator's failing account, once the answer is out.
   */
  const createTransfer = (ctx: TContext): TAnswer => {
    const source = requiredString(ctx.body, 'source');
    const amount = amountIn(ctx.body);
    const recipientCode = requiredString(ctx.body, 'recipient');
    const reference = requiredString(ctx.body, 'reference');
    const reason = optionalString(ctx.body, 'reason') ?? null;
    if (source !== 'balance')
      throw new PaystackRefusal(400, 'Invalid source. Only balance is supported');
    // "a lowercase alphanumeric string with only -,_ symbols allowed", at least 16 long (TransferBase).
    if (!/^[a-z0-9_-]{16,100}$/.test(reference)) {
      throw new PaystackRefusal(
        400,
        'Invalid transfer reference. Use 16 to 100 lowercase letters, digits, - and _',
        {
          type: 'validation_error',
          code: 'invalid_params',
        },
      );
    }
    const recipient = recipients.get(recipientCode);
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
    if (transfers.has(reference)) {
      throw new PaystackRefusal(400, 'Duplicate Transfer Reference', {
        type: 'validation_error',
        code: 'duplicate_reference',
      });
    }
    if (amount > balance) {
      throw new PaystackRefusal(400, 'Your balance is not enough to fulfil this request', {
        type: 'api_error',
        code: 'insufficient_balance',
      });
    }
    balance -= amount;
    const at = now();
    const transfer: TTransfer = {
      id: nextId++,
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
    transfers.set(reference, transfer);
    ctx.later.push(async () => {
      transfer.updatedAt = now();
      if (recipient.account_number === FAILING_PAYOUT_ACCOUNT) {
        transfer.status = 'failed';
        balance += transfer.amount;
        await sender.send('transfer.failed', transferFields(transfer, true));
      } else {
        transfer.status = 'success';
        transfer.transferredAt = now();
        await sender.send('transfer.success', transferFields(transfer, true));
      }
    });
    return ok('Transfer has been queued', {
      transfersessionid: [],
      transfertrials: [],
      ...transferFields(transfer, false),
    });
  };

  const verifyTransfer = (ctx: TContext): TAnswer => {
    const transfer = transfers.get(ctx.segments[2] ?? '');
    if (!transfer) throw new PaystackRefusal(404, 'Transfer not found');
    return ok('Transfer retrieved', transferFields(transfer, true));
  };

  const fetchBalance = (): TAnswer => ok('Balances retrieved', [{ currency: 'NGN', balance }]);

  const initializeMandate = (ctx: TContext): TAnswer => {
    const email = emailIn(ctx.body);
    const channel = requiredString(ctx.body, 'channel');
    if (channel !== 'direct_debit') {
      throw new PaystackRefusal(400, 'Invalid channel. direct_debit is the only supported option');
    }
    const callbackUrl = optionalString(ctx.body, 'callback_url') ?? null;
    if (callbackUrl !== null && !URL.canParse(callbackUrl)) {
      throw new PaystackRefusal(400, 'callback_url must be a fully qualified url');
    }
    const account = optionalObject(ctx.body, 'account');
    const accountRead = account
      ? {
          number: requiredString(account, 'number'),
          bankCode: requiredString(account, 'bank_code'),
        }
      : null;
    if (accountRead && !bankByCode(accountRead.bankCode)) {
      throw new PaystackRefusal(400, 'Invalid bank code');
    }
    const mandate: TMandate = {
      reference: randomCode(30),
      accessCode: randomCode(15),
      email,
      callbackUrl,
      account: accountRead,
      answer: null,
      authorizationCode: null,
    };
    mandates.set(mandate.reference, mandate);
    mandatesByAccessCode.set(mandate.accessCode, mandate);
    customerFor(email);
    return ok('Authorization initialized', {
      redirect_url: `${url}/mandate/${mandate.accessCode}`,
      access_code: mandate.accessCode,
      reference: mandate.reference,
    });
  };

  const mandateNotice = (mandate: TMandate, record: TAuthorizationRecord, active: boolean) => {
    const customer = customerFor(mandate.email);
    return {
      ...record.fields,
      active,
      integration: 100_001,
      domain: 'test',
      reference: mandate.reference,
      customer: {
        first_name: null,
        last_name: null,
        code: customer.customer_code,
        email: customer.email,
        phone: '',
        metadata: null,
        risk_action: 'default',
      },
    };
  };

  /**
   * The payer's answer on the bank's page. Approval issues a reusable direct_debit authorization
   * and sends direct_debit.authorization.created then direct_debit.authorization.active (at once:
   * the bank's activation, hours later on Paystack, is not simulated). Declining sends nothing.
   */
  const applyMandateAnswer = async (mandate: TMandate, approved: boolean) => {
    if (mandate.answer !== null)
      throw new Error(`The mandate ${mandate.reference} was already answered`);
    mandate.answer = approved ? 'approved' : 'declined';
    if (!approved) return;
    const bank = bankByCode(mandate.account?.bankCode ?? '058') ?? BANKS[0];
    const accountNumber = mandate.account?.number ?? '0123456789';
    const code = issueAuthorization(
      { email: mandate.email, channel: 'direct_debit', reusable: true },
      {
        bin: null,
        last4: accountNumber.slice(-4),
        exp_month: 1,
        exp_year: now().getUTCFullYear() + 10,
        channel: 'direct_debit',
        card_type: 'mandate',
        bank: bank?.name ?? null,
        country_code: 'NG',
        brand: bank?.name ?? null,
        reusable: true,
        signature: `SIG_${createHash('sha256').update(`${bank?.code}:${accountNumber}`).digest('hex').slice(0, 20)}`,
        account_name: mandate.account
          ? resolveAccountName(mandate.account.bankCode, accountNumber)
          : null,
      },
    );
    mandate.authorizationCode = code;
    const record = authorizations.get(code) as TAuthorizationRecord;
    await sender.send('direct_debit.authorization.created', mandateNotice(mandate, record, false));
    await sender.send('direct_debit.authorization.active', mandateNotice(mandate, record, true));
  };

  const verifyMandate = (ctx: TContext): TAnswer => {
    const mandate = mandates.get(ctx.segments[3] ?? '');
    const record = mandate?.authorizationCode
      ? authorizations.get(mandate.authorizationCode)
      : undefined;
    if (!mandate || !record) {
      // The documented refusal (Direct Debit docs, "Verify authorization"), until the payer approves.
      throw new PaystackRefusal(
        404,
        'Authorization does not exist or does not belong to integration',
        {
          metadata: { nextStep: 'Try again later' },
          type: 'api_error',
          code: 'unknown',
        },
      );
    }
    const customer = customerFor(mandate.email);
    return ok('Authorization retrieved successfully', {
      authorization_code: record.fields.authorization_code,
      channel: 'direct_debit',
      bank: record.fields.bank,
      active: true,
      customer: { code: customer.customer_code, email: customer.email },
    });
  };

  /** The payer's answer on the 3-D Secure page; approval pays and returns the notice to send. */
  const applyThreeDsAnswer = (transaction: TTransaction, approved: boolean) => {
    if (
      transaction.state !== 'awaiting' ||
      transaction.nextStep !== 'three_ds' ||
      !transaction.threeDs
    ) {
      throw new Error(`The charge ${transaction.reference} is not waiting for a 3-D Secure answer`);
    }
    transaction.threeDs.answer = approved ? 'approved' : 'declined';
    const later: TContext['later'] = [];
    if (approved) advance(transaction, later);
    // The decline's gateway response is not documented; the notice is none (no failure event).
    else fail(transaction, 'Declined');
    return later;
  };

  type TRoute = { method: string; path: RegExp; handle: (ctx: TContext) => TAnswer };
  const routes: TRoute[] = [
    { method: 'POST', path: /^\/charge$/, handle: createCharge },
    { method: 'POST', path: /^\/charge\/submit_pin$/, handle: submitStep('pin') },
    { method: 'POST', path: /^\/charge\/submit_otp$/, handle: submitStep('otp') },
    { method: 'POST', path: /^\/charge\/submit_phone$/, handle: submitStep('phone') },
    { method: 'POST', path: /^\/charge\/submit_birthday$/, handle: submitStep('birthday') },
    { method: 'GET', path: /^\/charge\/[^/]+$/, handle: checkCharge },
    { method: 'GET', path: /^\/transaction\/verify\/[^/]+$/, handle: verifyTransaction },
    {
      method: 'POST',
      path: /^\/transaction\/charge_authorization$/,
      handle: (ctx) => chargeAuthorization(ctx.body, ctx),
    },
    { method: 'GET', path: /^\/bank$/, handle: listBanks },
    { method: 'GET', path: /^\/bank\/resolve$/, handle: resolveAccount },
    { method: 'POST', path: /^\/refund$/, handle: createRefund },
    { method: 'GET', path: /^\/refund$/, handle: listRefunds },
    { method: 'GET', path: /^\/refund\/\d+$/, handle: fetchRefund },
    { method: 'POST', path: /^\/transferrecipient$/, handle: createRecipient },
    { method: 'POST', path: /^\/transfer$/, handle: createTransfer },
    { method: 'GET', path: /^\/transfer\/verify\/[^/]+$/, handle: verifyTransfer },
    { method: 'GET', path: /^\/balance$/, handle: fetchBalance },
    { method: 'POST', path: /^\/customer\/authorization\/initialize$/, handle: initializeMandate },
    { method: 'GET', path: /^\/customer\/authorization\/verify\/[^/]+$/, handle: verifyMandate },
  ];

  /** The payer's pages: not the API, so no bearer and no entry in `requests`. */
  const servePage = async (
    method: string,
    pathname: string,
    raw: string,
  ): Promise<TPageAnswer | null> => {
    const [, kind, code] = /^\/(checkout\/3ds|mandate)\/([a-z0-9]+)$/.exec(pathname) ?? [];
    if (pathname === '/close' && method === 'GET')
      return { status: 200, html: closePage('Payment step finished') };
    if (!kind || !code) return null;
    const answer = new URLSearchParams(raw).get('answer');
    if (kind === 'checkout/3ds') {
      const transaction = threeDsCodes.get(code);
      if (!transaction?.threeDs) return { status: 404, html: notFoundPage() };
      if (
        method === 'POST' &&
        transaction.threeDs.answer === null &&
        (answer === 'approve' || answer === 'decline')
      ) {
        const later = applyThreeDsAnswer(transaction, answer === 'approve');
        for (const work of later) await work();
        // The Charge API ends its 3-D Secure page on standard.paystack.co/close (its docs).
        return { status: 303, location: `${url}/close` };
      }
      return {
        status: 200,
        html: threeDsPage({
          action: pathname,
          amount: transaction.amount,
          last4: transaction.card?.number.slice(-4) ?? '',
          answered: transaction.threeDs.answer,
        }),
      };
    }
    const mandate = mandatesByAccessCode.get(code);
    if (!mandate) return { status: 404, html: notFoundPage() };
    if (
      method === 'POST' &&
      mandate.answer === null &&
      (answer === 'approve' || answer === 'decline')
    ) {
      await applyMandateAnswer(mandate, answer === 'approve');
      // Customer Authorization's callback_url is where Paystack sends the payer back.
      if (mandate.callbackUrl) {
        const back = new URL(mandate.callbackUrl);
        back.searchParams.set('reference', mandate.reference);
        return { status: 303, location: back.toString() };
      }
      return { status: 303, location: `${url}/close` };
    }
    return {
      status: 200,
      html: mandatePage({
        action: pathname,
        email: mandate.email,
        bankName: bankByCode(mandate.account?.bankCode ?? '058')?.name ?? 'bank',
        answered: mandate.answer,
      }),
    };
  };

  const readRaw = (request: IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      request.on('error', reject);
    });

  const takeMatching = <T extends { prefix: string }>(list: T[], path: string) => {
    const index = list.findIndex((entry) => path.startsWith(entry.prefix));
    return index === -1 ? undefined : list.splice(index, 1)[0];
  };

  const respondJson = (response: ServerResponse, answer: TAnswer) => {
    const text = JSON.stringify(answer.body);
    response.writeHead(answer.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
    });
    response.end(text);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const method = request.method ?? 'GET';
    const target = new URL(request.url ?? '/', 'http://simulator');
    const pathname = target.pathname.replace(/\/+$/, '') || '/';
    const raw = await readRaw(request);

    const pageAnswer = await servePage(method, pathname, raw);
    if (pageAnswer) {
      response.writeHead(pageAnswer.status, {
        'content-type': 'text/html; charset=utf-8',
        ...(pageAnswer.location ? { location: pageAnswer.location } : {}),
      });
      response.end(pageAnswer.html ?? '');
      return;
    }

    const authorized = request.headers.authorization === `Bearer ${secretKey}`;
    let body: TBody = {};
    let bodyRefusal: PaystackRefusal | null = null;
    try {
      body = parseBody(raw, request.headers['content-type']);
    } catch (error) {
      bodyRefusal =
        error instanceof PaystackRefusal ? error : new PaystackRefusal(400, 'Invalid body');
    }
    const path = `${pathname}${target.search}`;
    requests.push({ method, path, body: bodyRefusal ? raw : body, authorized });

    const failure = takeMatching(failures, pathname);
    if (failure) {
      // A provider's failure without effect: the body is not Paystack's documented one.
      respondJson(response, {
        status: failure.status,
        body: { status: false, message: 'Service unavailable, try again' },
      });
      return;
    }
    const lose = takeMatching(lostAnswers, pathname);

    const ctx: TContext = {
      method,
      segments: pathname.split('/').slice(1),
      query: target.searchParams,
      body,
      later: [],
    };
    let answer: TAnswer;
    try {
      if (!authorized) throw new PaystackRefusal(401, 'Invalid key');
      if (bodyRefusal) throw bodyRefusal;
      const route = routes.find(
        (candidate) => candidate.method === method && candidate.path.test(pathname),
      );
      if (!route) {
        const known = routes.some((candidate) => candidate.path.test(pathname));
        throw new PaystackRefusal(
          known ? 405 : 404,
          known ? 'Method not allowed' : 'Route not found',
        );
      }
      answer = route.handle(ctx);
    } catch (error) {
      if (!(error instanceof PaystackRefusal)) throw error;
      answer = {
        status: error.httpStatus,
        body: { status: false, message: error.message, ...error.extra },
      };
    }
    if (lose) {
      // The effect stands (the charge is recorded, the money moved); only the answer is lost.
      request.socket.destroy();
    } else {
      respondJson(response, answer);
    }
    for (const work of ctx.later) await work();
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        respondJson(response, { status: 500, body: { status: false, message: String(error) } });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const transactionFor = (reference: string) => {
    const transaction = transactions.get(reference);
    if (!transaction) throw new Error(`No charge with the reference ${reference}`);
    return transaction;
  };

  return {
    url,
    secretKey,
    requests,
    notices,
    async close() {
      await sender.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async payTransfer(accountNumber, amount, from) {
      const transaction = transferAccounts.get(accountNumber);
      const account = transaction?.transferAccount;
      if (!transaction || !account)
        throw new Error(`No one-time account ${accountNumber} was issued`);
      const payer = from ?? {
        accountNumber: '0123456789',
        accountName: 'ADAEZE OKAFOR',
        bankCode: '058',
      };
      // Paid already, or expired: Paystack sends the money back and tells the merchant nothing.
      if (transaction.state !== 'awaiting') return;
      if (now().getTime() > Date.parse(account.account_expires_at)) return;
      if (amount !== transaction.amount) {
        // The documented answer to a wrong amount (Pay with Transfer docs): the money goes back.
        const customer = customerFor(transaction.email);
        await sender.send('bank.transfer.rejected', {
          bank_transfer: {
            amount: String(amount),
            message: 'incorrect amount sent',
            message_type: 'INCORRECT_AMOUNT',
            transaction_id: String(transaction.id),
          },
          customer: {
            first_name: null,
            last_name: null,
            email: customer.email,
            phone: null,
            metadata: null,
            domain: 'test',
            customer_code: customer.customer_code,
            risk_action: 'default',
            id: customer.id,
            integration: 100_001,
          },
        });
        return;
      }
      const paidAt = now();
      const lastThree = payer.accountNumber.slice(-3);
      // Paystack masks the sender's account number and shows the rest (Pay with Transfer docs,
      // charge.success): "sender_bank_account_number": "XXXXXXX553".
      transaction.authorizationCode = issueAuthorization(
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
      await succeed(transaction, 'Approved')();
    },
    async answerThreeDs(reference, approved) {
      for (const work of applyThreeDsAnswer(transactionFor(reference), approved)) await work();
    },
    loseNextAnswer(pathPrefix) {
      lostAnswers.push({ prefix: pathPrefix });
    },
    failNext(pathPrefix, status) {
      failures.push({ prefix: pathPrefix, status });
    },
    async answerMandate(reference, approved) {
      const mandate = mandates.get(reference);
      if (!mandate) throw new Error(`No mandate with the reference ${reference}`);
      await applyMandateAnswer(mandate, approved);
    },
    declineAuthorization(authorizationCode, gatewayResponse = 'Insufficient Funds') {
      const record = authorizations.get(authorizationCode);
      if (!record) throw new Error(`No authorization ${authorizationCode} was issued`);
      record.declinedWith = gatewayResponse;
    },
    failNextRefund() {
      failNextRefund = true;
    },
    idle: () => sender.idle(),
  };
}
