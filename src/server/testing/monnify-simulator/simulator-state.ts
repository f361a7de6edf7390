import { randomBytes } from 'node:crypto';

/**
 * What the Monnify simulator remembers, shared by its parts, and how it answers: every answer is
 * Monnify's envelope { requestSuccessful, responseMessage, responseCode, responseBody }, a refusal
 * the same envelope with requestSuccessful false (Monnify API Reference: ErrorResponse).
 */

export type TBody = Record<string, unknown>;

export type TAnswer = { status: number; body: unknown };

/** A refusal: answered with `status` and Monnify's error envelope. */
export class MonnifyRefusal extends Error {
  constructor(
    readonly httpStatus: number,
    message: string,
    readonly responseCode = '99',
  ) {
    super(message);
  }
}

export const success = (responseBody: unknown): TAnswer => ({
  status: 200,
  body: { requestSuccessful: true, responseMessage: 'success', responseCode: '0', responseBody },
});

/** Amounts cross Monnify's API in naira with kobo as decimals (`amount: 2500.50`). */
export const toNaira = (kobo: number) => kobo / 100;

/** A naira amount as Monnify takes it: a positive number with at most two decimals. */
export function koboIn(body: TBody, field: string): number {
  const value = body[field];
  const naira = typeof value === 'number' ? value : Number.NaN;
  const kobo = Math.round(naira * 100);
  if (!Number.isFinite(naira) || naira <= 0 || Math.abs(kobo - naira * 100) > 1e-6) {
    throw new MonnifyRefusal(400, `${field} must be a positive amount in naira`);
  }
  return kobo;
}

export function stringIn(body: TBody, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new MonnifyRefusal(400, `${field} is required`);
  }
  return value;
}

export const optionalStringIn = (body: TBody, field: string): string | undefined =>
  body[field] === undefined ? undefined : stringIn(body, field);

export type TCardRecord = {
  cardType: string;
  last4: string;
  bin: string;
  expMonth: string;
  expYear: string;
  cardToken: string;
};

/** A payment Monnify initialised (init-transaction): its money, its state, how it was paid. */
export type TTransaction = {
  transactionReference: string;
  paymentReference: string;
  /** Kobo asked for (totalPayable). */
  amount: number;
  /** Kobo that reached it. */
  amountPaid: number;
  customerEmail: string;
  customerName: string;
  paymentDescription: string;
  paymentMethods: string[];
  metaData: TBody;
  /** PENDING, PAID, OVERPAID, PARTIALLY_PAID, FAILED, EXPIRED, and REVERSED once given back whole. */
  paymentStatus: string;
  paymentMethod: 'CARD' | 'ACCOUNT_TRANSFER' | null;
  createdOn: Date;
  paidOn: Date | null;
  card: TCardRecord | null;
  /** The one-time account of a transfer (init-payment), and until when it takes money. */
  account: { accountNumber: string; accountName: string; bankCode: string; expiresAt: Date } | null;
  sender: { accountNumber: string; accountName: string; bankCode: string } | null;
  /** The step a card charge waits at, with the card's test behaviour. */
  step: { kind: 'otp'; tokenId: string; otp: string } | { kind: '3ds'; id: string } | null;
  refundedKobo: number;
};

export type TRefund = {
  refundReference: string;
  transactionReference: string;
  refundAmount: number;
  refundReason: string;
  customerNote: string;
  refundStatus: 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';
  createdOn: Date;
  comment: string;
};

export type TDisbursement = {
  reference: string;
  transactionReference: string;
  amount: number;
  narration: string;
  destinationBankCode: string;
  destinationAccountNumber: string;
  destinationAccountName: string;
  sourceAccountNumber: string;
  /** PENDING_AUTHORIZATION (waiting for the OTP), SUCCESS, FAILED, REVERSED. */
  status: string;
  createdOn: Date;
  otp: string | null;
};

export type TSimState = {
  url: string;
  now: () => Date;
  send: (eventType: string, eventData: unknown) => Promise<void>;
  transactions: Map<string, TTransaction>;
  byPaymentReference: Map<string, string>;
  refunds: Map<string, TRefund>;
  disbursements: Map<string, TDisbursement>;
  /** How long a one-time account takes money (accountDurationSeconds). */
  accountSeconds: number;
  /** Whether single transfers wait for an OTP (validate-otp): Monnify's default. */
  payoutOtp: boolean;
  walletAccountNumber: string;
  seq: number;
};

export const createSimState = (options: {
  now: () => Date;
  send: TSimState['send'];
  accountSeconds: number;
  payoutOtp: boolean;
  walletAccountNumber: string;
}): TSimState => ({
  url: '',
  now: options.now,
  send: options.send,
  transactions: new Map(),
  byPaymentReference: new Map(),
  refunds: new Map(),
  disbursements: new Map(),
  accountSeconds: options.accountSeconds,
  payoutOtp: options.payoutOtp,
  walletAccountNumber: options.walletAccountNumber,
  seq: 0,
});

/** Monnify's own references look like MNFY|76|20211117154810|000001. */
export function monnifyReference(state: TSimState): string {
  state.seq += 1;
  const stamp = state.now().toISOString().replace(/\D/g, '').slice(0, 14);
  return `MNFY|76|${stamp}|${String(state.seq).padStart(6, '0')}`;
}

export const randomDigits = (length: number) =>
  Array.from(randomBytes(length), (byte) => String(byte % 10)).join('');

/** Monnify writes its times as 'yyyy-MM-dd HH:mm:ss.SSS' (its webhook and status samples). */
export const monnifyTime = (date: Date) => date.toISOString().replace('T', ' ').replace('Z', '');

export type TContext = {
  method: string;
  segments: string[];
  query: URLSearchParams;
  body: TBody;
  /** Work done after the answer is written: notices. */
  later: Array<() => Promise<void>>;
};

export type TRoute = { method: string; path: RegExp; handle: (ctx: TContext) => TAnswer };

/** A page of a list, in the Spring page shape Monnify answers lists with. */
export function pageOf<T>(all: T[], page: number, size: number) {
  const content = all.slice(page * size, (page + 1) * size);
  const totalPages = Math.ceil(all.length / size);
  return {
    content,
    totalElements: all.length,
    totalPages,
    last: page + 1 >= totalPages,
    first: page === 0,
    number: page,
    size,
    numberOfElements: content.length,
    empty: content.length === 0,
  };
}
