import { randomBytes } from 'node:crypto';
import type { TBody } from './request-checks';
import { duplicateReference, PaystackRefusal } from './request-checks';
import type { TCardStep, TTestCard } from './test-cards';

/**
 * What the simulator remembers, shared by its parts: transactions, customers, the authorizations
 * it issued, the balance, and how a transaction is shown (Paystack's transaction object) and
 * settled (paid, with charge.success; or failed, with no notice).
 */

/**
 * A customer's identification (Validate Customer), as Paystack's customeridentification notices
 * show it, the BVN and account number masked. The docs show no identification inside a customer
 * object, so its `identifications` hold this same shape.
 */
export type TIdentification = {
  country: 'NG';
  type: 'bank_account';
  bvn: string;
  account_number: string;
  bank_code: string;
};

/** One customer per email, whether made by POST /customer, a charge or a mandate. */
export type TCustomer = {
  id: number;
  customer_code: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  metadata: Record<string, unknown> | null;
  identified: boolean;
  identifications: TIdentification[] | null;
  createdAt: Date;
  updatedAt: Date;
};

/** The integration every object of the simulator belongs to. */
export const INTEGRATION_ID = 100_001;

/** The customer object of Paystack's customer calls and of bank.transfer.rejected. */
export const customerObject = (customer: TCustomer) => ({
  email: customer.email,
  first_name: customer.first_name,
  last_name: customer.last_name,
  phone: customer.phone,
  metadata: customer.metadata,
  domain: 'test',
  customer_code: customer.customer_code,
  risk_action: 'default',
  id: customer.id,
  integration: INTEGRATION_ID,
});

export type TAuthorizationRecord = {
  /** The authorization object as Paystack shows it. */
  fields: Record<string, unknown>;
  email: string;
  channel: 'card' | 'bank_transfer' | 'direct_debit';
  reusable: boolean;
  declinedWith: string | null;
};

export type TTransferAccount = {
  account_name: string;
  account_number: string;
  bank: { slug: string; name: string; id: number };
  account_expires_at: string;
};

export type TTransaction = {
  id: number;
  reference: string;
  /** In the minor unit of `currency`. */
  amount: number;
  /** ISO 4217: the integration's NGN unless the charge named another (Charge API `currency`). */
  currency: string;
  email: string;
  /** pos: a card at a Paystack Terminal paying a payment request (terminals.ts). */
  channel: 'card' | 'bank_transfer' | 'direct_debit' | 'pos';
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

export type TAnswer = { status: number; body: unknown };

export type TContext = {
  method: string;
  segments: string[];
  query: URLSearchParams;
  body: TBody;
  /** Work to run once the answer is out (notices), in order. */
  later: Array<() => Promise<void>>;
};

export type TRoute = { method: string; path: RegExp; handle: (ctx: TContext) => TAnswer };

export const ok = (
  message: string,
  data: unknown,
  extra: Record<string, unknown> = {},
): TAnswer => ({
  status: 200,
  body: { status: true, message, data, ...extra },
});

/**
 * One page of a list call (GET /transaction, /transfer, /refund): `perPage` (default 50, at most 100)
 * and `page` (from 1) as the query gives them, with Paystack's `meta` of the whole list.
 */
export function listPage<T>(
  ctx: Pick<TContext, 'query'>,
  message: string,
  items: readonly T[],
): TAnswer {
  const perPage = Math.min(Math.max(Number(ctx.query.get('perPage') ?? 50) || 50, 1), 100);
  const page = Math.max(Number(ctx.query.get('page') ?? 1) || 1, 1);
  const skipped = (page - 1) * perPage;
  return ok(message, items.slice(skipped, skipped + perPage), {
    meta: {
      total: items.length,
      skipped,
      perPage,
      page,
      pageCount: Math.max(Math.ceil(items.length / perPage), 1),
    },
  });
}

/** A time of a list's query (`from`, `to`: date-time), or null when not given. */
const queryTime = (ctx: Pick<TContext, 'query'>, name: 'from' | 'to'): number | null => {
  const value = ctx.query.get(name);
  if (value === null) return null;
  const time = Date.parse(value);
  // The wording is assumed: Paystack's docs show no refusal of a malformed date.
  if (Number.isNaN(time)) throw new PaystackRefusal(400, `Invalid ${name} date`);
  return time;
};

/**
 * Whether a record made at a time is within a list's `from` and `to`, both included: List
 * Transactions, List Transfers and List Refunds take both (PaystackOSS/openapi paths/
 * transaction.yaml, transfer.yaml, refund.yaml), and so narrow what a page holds.
 */
export function madeWithin(ctx: Pick<TContext, 'query'>): (made: Date) => boolean {
  const from = queryTime(ctx, 'from');
  const to = queryTime(ctx, 'to');
  return (made) =>
    (from === null || made.getTime() >= from) && (to === null || made.getTime() <= to);
}

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const randomCode = (length: number) =>
  Array.from(randomBytes(length), (byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join('');

export const iso = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * Paystack's local card and transfer fee: 1.5%, plus ₦100 from ₦2,500, capped at ₦2,000
 * (paystack.com/pricing). Charged on every successful payment and taken from the balance.
 */
const feeOf = (amount: number) =>
  Math.min(Math.round(amount * 0.015) + (amount >= 250_000 ? 10_000 : 0), 200_000);

export type TSimState = ReturnType<typeof createSimState>;

/** What every part of the simulator reads and moves: the clock, notices, the balance, ids and records. */
const simBase = (input: {
  now: () => Date;
  send: (event: string, data: unknown) => Promise<void>;
  balance: number;
}) => {
  let lastId = 1_000_000;
  return {
    now: input.now,
    send: input.send,
    /** The simulator's own address, known once it listens. */
    url: '',
    funds: { balance: input.balance },
    newId: () => ++lastId,
    transactions: new Map<string, TTransaction>(),
    authorizations: new Map<string, TAuthorizationRecord>(),
  };
};

/** The shared records, with the indexes only the state itself reads. */
type TSimBooks = {
  base: ReturnType<typeof simBase>;
  transactionsById: Map<number, TTransaction>;
  /** By lower-cased email. */
  customers: Map<string, TCustomer>;
  customersByCode: Map<string, TCustomer>;
};

/** The customer of this email (Paystack matches emails whatever their case), made if new. */
const customerFor = (books: TSimBooks, email: string): TCustomer => {
  const known = books.customers.get(email.toLowerCase());
  if (known) return known;
  const { now } = books.base;
  const customer: TCustomer = {
    id: books.base.newId(),
    customer_code: `CUS_${randomCode(15)}`,
    email,
    first_name: null,
    last_name: null,
    phone: null,
    metadata: null,
    identified: false,
    identifications: null,
    createdAt: now(),
    updatedAt: now(),
  };
  books.customers.set(email.toLowerCase(), customer);
  books.customersByCode.set(customer.customer_code, customer);
  return customer;
};

/** A known customer by its code or its email; undefined for neither. */
const findCustomer = (books: TSimBooks, emailOrCode: string) =>
  books.customersByCode.get(emailOrCode) ?? books.customers.get(emailOrCode.toLowerCase());

/** The customer as a transaction or a notice shows it. */
const customerFields = (books: TSimBooks, email: string) => {
  const customer = customerFor(books, email);
  return {
    id: customer.id,
    first_name: customer.first_name,
    last_name: customer.last_name,
    email: customer.email,
    customer_code: customer.customer_code,
    phone: customer.phone,
    metadata: customer.metadata,
    risk_action: 'default',
    international_format_phone: null,
  };
};

/** Paystack's "verify" status of a transaction. */
const transactionStatus = (now: () => Date, transaction: TTransaction) => {
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

/** The transaction object as Paystack's verify, list and charge.success show it. */
const transactionFields = (books: TSimBooks, transaction: TTransaction) => {
  const authorization = transaction.authorizationCode
    ? (books.base.authorizations.get(transaction.authorizationCode)?.fields ?? {})
    : {};
  return {
    id: transaction.id,
    domain: 'test',
    status: transactionStatus(books.base.now, transaction),
    reference: transaction.reference,
    receipt_number: null,
    amount: transaction.amount,
    message: transaction.message,
    gateway_response: transaction.gatewayResponse,
    paid_at: iso(transaction.paidAt),
    created_at: iso(transaction.createdAt),
    channel: transaction.channel,
    currency: transaction.currency,
    ip_address: '127.0.0.1',
    metadata: transaction.metadata ?? '',
    log: null,
    fees: transaction.state === 'success' ? transaction.fees : null,
    fees_split: null,
    authorization,
    customer: customerFields(books, transaction.email),
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

/** What a new transaction is made of; its reference is random when none is given. */
type TNewTransaction = {
  reference: string | undefined;
  amount: number;
  currency?: string;
  email: string;
  channel: TTransaction['channel'];
  metadata: unknown;
};

/** Records a new transaction awaiting its payer, refusing a reference already used. */
const newTransaction = (books: TSimBooks, input: TNewTransaction): TTransaction => {
  const { transactions, now } = books.base;
  const reference = input.reference ?? randomCode(15);
  if (transactions.has(reference)) throw duplicateReference();
  customerFor(books, input.email);
  const transaction: TTransaction = {
    id: books.base.newId(),
    reference,
    amount: input.amount,
    currency: input.currency ?? 'NGN',
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
  books.transactionsById.set(transaction.id, transaction);
  return transaction;
};

/** Records an authorization under a new code, and returns the code. */
const issueAuthorization = (
  authorizations: Map<string, TAuthorizationRecord>,
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

/**
 * Marks the transaction paid and credits the balance, less the fee; returns the sending of its
 * charge.success, which the caller runs once its answer is out.
 */
const succeed = (books: TSimBooks, transaction: TTransaction, gatewayResponse: string) => {
  const { base } = books;
  transaction.state = 'success';
  transaction.nextStep = null;
  transaction.paidAt = base.now();
  transaction.gatewayResponse = gatewayResponse;
  transaction.fees = feeOf(transaction.amount);
  base.funds.balance += transaction.amount - transaction.fees;
  return () => base.send('charge.success', transactionFields(books, transaction));
};

/** A failed charge sends no notice: Paystack documents no event for it. */
const fail = (transaction: TTransaction, gatewayResponse: string) => {
  transaction.state = 'failed';
  transaction.nextStep = null;
  transaction.gatewayResponse = gatewayResponse;
  transaction.message = gatewayResponse;
};

/** A transaction by its reference, or by its id. */
const findTransaction = (books: TSimBooks, key: string) => {
  const byReference = books.base.transactions.get(key);
  if (byReference) return byReference;
  return /^\d+$/.test(key) ? books.transactionsById.get(Number(key)) : undefined;
};

/** The simulator's shared state, and the ways its parts read and settle customers and transactions. */
export const createSimState = (input: {
  now: () => Date;
  send: (event: string, data: unknown) => Promise<void>;
  balance: number;
}) => {
  const state = simBase(input);
  const books: TSimBooks = {
    base: state,
    transactionsById: new Map(),
    customers: new Map(),
    customersByCode: new Map(),
  };
  return Object.assign(state, {
    customerFor: (email: string) => customerFor(books, email),
    findCustomer: (emailOrCode: string) => findCustomer(books, emailOrCode),
    customerFields: (email: string) => customerFields(books, email),
    transactionFields: (transaction: TTransaction) => transactionFields(books, transaction),
    newTransaction: (transaction: TNewTransaction) => newTransaction(books, transaction),
    issueAuthorization: (
      record: Omit<TAuthorizationRecord, 'fields' | 'declinedWith'>,
      fields: Record<string, unknown>,
    ) => issueAuthorization(state.authorizations, record, fields),
    succeed: (transaction: TTransaction, gatewayResponse: string) =>
      succeed(books, transaction, gatewayResponse),
    fail,
    findTransaction: (key: string) => findTransaction(books, key),
  });
};
