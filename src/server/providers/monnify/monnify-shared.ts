import type { TClock } from '../../clock';
import type { TDb } from '../../db/database';
import type { TCardSummary, TRequeryOutcome } from '../payments';
import { providerReferencesOf, type TProviderReferences } from '../provider-references';
import type { TMonnifyTransaction } from './monnify-api';
import { monnifyClient, MonnifyNoAnswer, type TMonnifyClientOptions } from './monnify-client';

/*
 * What the Monnify adapter's capabilities share, made once per adapter (monnifyProvider): the
 * client and its token, the contract code, what every process must know alike of our references
 * (closed, card charges waiting for their payer, one-time accounts opened: in the database), and
 * the requery of a transaction by our reference.
 */

/**
 * The email Monnify requires on every transaction. We know payers by phone: every transaction
 * is made as this one customer, at a reserved domain (RFC 2606) no receipt ever reaches.
 */
export const MONNIFY_PAYER_EMAIL = 'payers@example.com';

export type TMonnifyProviderOptions = Pick<
  TMonnifyClientOptions,
  'apiKey' | 'secretKey' | 'baseUrl' | 'timeoutMs' | 'readRetryDelaysMs'
> & {
  contractCode: string;
  /** Where the adapter keeps what every process must know alike (provider-references.ts). */
  db: TDb;
  clock: TClock;
  /**
   * The account number of the Monnify wallet payouts are sent from (disbursements'
   * sourceAccountNumber); without it the adapter offers no payouts.
   */
  walletAccountNumber?: string | null;
};

export type TMonnify = {
  client: ReturnType<typeof monnifyClient>;
  clock: TClock;
  secretKey: string;
  contractCode: string;
  walletAccountNumber: string | null;
  /**
   * What every process must know alike (provider-references.ts, docs/providers/monnify.md "Lost
   * answers"): references asked about (a requery) that Monnify had never seen, which the port
   * closes and a late call with one is refused (Monnify cannot close a reference itself); the
   * step each open card charge waits at, its OTP's id and its card, by Monnify's reference; the
   * one-time accounts opened, by our reference.
   */
  references: TProviderReferences;
};

export function monnifyShared(options: TMonnifyProviderOptions): TMonnify {
  return {
    client: monnifyClient(options),
    clock: options.clock,
    secretKey: options.secretKey,
    contractCode: options.contractCode,
    walletAccountNumber: options.walletAccountNumber ?? null,
    references: providerReferencesOf(options.db, options.clock, 'monnify'),
  };
}

/** A card charge waiting for its payer: the step, the OTP's id Monnify gave, and its card. */
export type TOpenCharge = {
  step: 'pin' | 'otp' | '3ds';
  tokenId: string | null;
  card: TCardSummary;
};

/** The charge waiting for its payer by Monnify's reference, as the charging process kept it. */
export const openChargeOf = async (mf: TMonnify, transactionReference: string) =>
  (await mf.references.read('open_charge', transactionReference)) as TOpenCharge | null;

export const keepOpenCharge = (mf: TMonnify, transactionReference: string, open: TOpenCharge) =>
  mf.references.keep('open_charge', transactionReference, open);

export const forgetOpenCharge = (mf: TMonnify, transactionReference: string) =>
  mf.references.forget('open_charge', transactionReference);

/** Kobo as Monnify's naira amount: 250000 → 2500, 1050 → 10.5. */
export const nairaOf = (kobo: number) => kobo / 100;

/** Monnify's naira amount (a number, or text in the status answers) in kobo. */
export function koboOf(naira: string | number | null | undefined): number {
  const value = typeof naira === 'number' ? naira : Number(naira ?? Number.NaN);
  if (!Number.isFinite(value)) throw new Error(`Monnify named an amount that is not one: ${naira}`);
  return Math.round(value * 100);
}

/** A requery of a reference Monnify never saw: closed (the port's 'not_taken' is final). */
export const NEVER_ARRIVED = {
  kind: 'not_taken',
  providerReference: null,
  reason: 'never arrived',
} as const;

/** A refusal that means Monnify holds nothing by the reference asked about. */
export const isNotFound = (answer: { httpStatus: number; code: string }) =>
  answer.httpStatus === 404 || answer.code === 'R7' || answer.code === 'D04';

/**
 * Monnify's record of the transaction made with our reference (its paymentReference); null when
 * Monnify never saw it, which closes the reference here.
 */
export async function transactionOf(
  mf: TMonnify,
  reference: string,
): Promise<TMonnifyTransaction | null> {
  const answer = await mf.client.read<TMonnifyTransaction>('/api/v2/merchant/transactions/query', {
    paymentReference: reference,
  });
  if (answer.ok) return answer.body;
  if (!isNotFound(answer))
    throw new MonnifyNoAnswer(`the transaction ${reference}`, answer.message);
  await mf.references.close(reference);
  return null;
}

/** Monnify's record of a transaction by its own reference; null when it holds none. */
export async function transactionByMonnifyReference(
  mf: TMonnify,
  transactionReference: string,
): Promise<TMonnifyTransaction | null> {
  const answer = await mf.client.read<TMonnifyTransaction>('/api/v2/merchant/transactions/query', {
    transactionReference,
  });
  if (answer.ok) return answer.body;
  if (isNotFound(answer)) return null;
  throw new MonnifyNoAnswer(`the transaction ${transactionReference}`, answer.message);
}

/**
 * A transaction in the port's words. PAID: taken; OVERPAID and PARTIALLY_PAID: money arrived,
 * but not the amount asked for (what arrived is the amount: the services give it back); REVERSED:
 * taken and given back whole; PENDING: waiting; EXPIRED, FAILED and every other end: not taken.
 */
export function transactionOutcome(
  transaction: TMonnifyTransaction,
  awaiting: 'pin' | 'otp' | '3ds' | null,
): TRequeryOutcome {
  const providerReference = transaction.transactionReference;
  switch (transaction.paymentStatus) {
    case 'PAID':
    case 'OVERPAID':
    case 'PARTIALLY_PAID':
    case 'REVERSED':
      if ((transaction.currency ?? 'NGN') !== 'NGN') {
        return { kind: 'not_taken', providerReference, reason: `taken in ${transaction.currency}` };
      }
      return {
        kind: 'taken',
        providerReference,
        amount: koboOf(transaction.amountPaid),
        givenBack: transaction.paymentStatus === 'REVERSED',
      };
    case 'PENDING':
      return { kind: 'pending', awaiting, providerReference };
    case 'EXPIRED':
      return { kind: 'not_taken', providerReference, reason: 'expired' };
    default:
      return {
        kind: 'not_taken',
        providerReference,
        reason: transaction.paymentStatus.toLowerCase(),
      };
  }
}

/** Our metadata on a Monnify transaction: what it was for (a card charge or a transfer in). */
export const ourChannel = (transaction: { metaData?: Record<string, unknown> | null }) => {
  const channel = transaction.metaData?.oya_channel;
  return channel === 'card' || channel === 'transfer' ? channel : null;
};
