import { CURRENCY_CODE } from '../../../domain/constants';
import {
  paystackCalls,
  paystackNoAnswer,
  paystackPath,
  type TPaystackCallOptions,
  type TPaystackCalls,
} from './paystack-calls';
import type { TBank, TCardSummary, TRequeryOutcome } from '../payments';
import type { TPaystackAuthorization, TPaystackCharge, TPaystackTransaction } from './paystack-api';
import { cardDeclineReason, isUnknownReference } from './paystack-declines';
import { toPaystackReference } from './paystack-references';
import type { TClock } from '../../clock';
import type { TDb } from '../../db/database';
import { providerReferencesOf, type TProviderReferences } from '../provider-references';

/*
 * What the Paystack adapter's capabilities share, made once per adapter (paystackProvider): the
 * client, the references closed, the charges waiting for their payer, the one-time accounts
 * opened and the bank list, and the requeries of Paystack's records by our reference.
 */

/**
 * The email Paystack requires with every charge. We know payers by phone, never by email: a card
 * charge, which may come from a payer who never signed in, is made as this one customer, at a
 * reserved domain (RFC 2606) no receipt ever reaches.
 */
export const PAYSTACK_PAYER_EMAIL = 'payers@example.com';

/** Where a signed-in payer's own Paystack customer is addressed (their mandates, their BVN check). */
const PAYER_EMAIL_DOMAIN = 'payers.example.com';

/**
 * A signed-in payer's Paystack customer, one per payer: its mandates are charged as it, and
 * Paystack's customer validation checks their BVN against the account as it. Its email names
 * our payer, so a notice about the customer names them back (payerOfPaystackEmail).
 */
export const paystackPayerEmail = (payerId: string) => `${payerId}@${PAYER_EMAIL_DOMAIN}`;

/** Our payer a customer's email names, or null for another customer. */
export function payerOfPaystackEmail(email: string): string | null {
  const suffix = `@${PAYER_EMAIL_DOMAIN}`;
  if (!email.endsWith(suffix)) return null;
  const payerId = email.slice(0, -suffix.length);
  return /^[A-Za-z0-9_-]+$/.test(payerId) ? payerId : null;
}

/** A requery of a reference Paystack never saw: closed (the port's 'not_taken' is final). */
export const NEVER_ARRIVED = {
  kind: 'not_taken',
  providerReference: null,
  reason: 'never arrived',
} as const;

/**
 * Whether Paystack took the money in naira. Our calls name no currency, so Paystack charges in
 * the integration's own: money it took in another (or names none for) pays nothing here. The
 * payer is told it failed, and Paystack's charge.success of it gives it back (paystack-notices.ts).
 */
export const takenInNaira = (record: { currency?: string }) => record.currency === CURRENCY_CODE;

/** What a charge Paystack has not decided waits for from the payer, by its status. */
const AWAITING_OF_STATUS: Partial<Record<string, 'pin' | 'otp' | '3ds'>> = {
  send_pin: 'pin',
  send_otp: 'otp',
  open_url: '3ds',
};

/** How the adapter reaches Paystack, and how long it waits on a pending answer. */
export type TPaystackProviderOptions = Pick<
  TPaystackCallOptions,
  'secretKey' | 'baseUrl' | 'timeoutMs' | 'readRetryDelaysMs'
> & {
  /** Where the adapter keeps what every process must know alike (provider-references.ts). */
  db: TDb;
  clock: TClock;
  /**
   * A charge, debit or payout Paystack answers 'pending' is asked about by reference after each
   * of these pauses (Paystack asks for 10 s or more); still pending after the last, it is left to
   * the reconciler.
   */
  pendingCheckDelaysMs?: readonly number[];
};

/** The adapter's shared state and client, read and written by every capability's calls. */
export type TPaystack = {
  client: TPaystackCalls;
  clock: TClock;
  secretKey: string;
  /** The pauses after which a 'pending' answer is asked about again. */
  pendingChecks: readonly number[];
  pause: (ms: number) => Promise<unknown>;
  /**
   * What every process must know alike (provider-references.ts): references asked about (a
   * requery) that Paystack had never seen, which the port closes and a late call with one is
   * refused (Paystack itself cannot close a reference); the step each open charge waits at, and
   * its card, by Paystack's reference; the one-time accounts opened, by our reference.
   */
  references: TProviderReferences;
  /** The bank list, and Paystack's own id of each bank by its code (Retry Refund names it so). */
  bankList: { at: number; banks: readonly TBank[]; ids: ReadonlyMap<string, number> } | null;
};

/** The shared state of one adapter, empty, and its client. */
export function paystackShared(options: TPaystackProviderOptions): TPaystack {
  return {
    client: paystackCalls(options),
    clock: options.clock,
    secretKey: options.secretKey,
    pendingChecks: options.pendingCheckDelaysMs ?? [10_000, 20_000],
    pause: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    references: providerReferencesOf(options.db, options.clock, 'paystack'),
    bankList: null,
  };
}

/** A card charge waiting for its payer: the step it waits at, and its card. */
export type TOpenCharge = { step: 'pin' | 'otp' | '3ds'; card: TCardSummary };

/** The charge waiting for its payer by Paystack's reference, as whichever process charged it kept it. */
export const openChargeOf = async (ps: TPaystack, providerReference: string) =>
  (await ps.references.read('open_charge', providerReference)) as TOpenCharge | null;

export const keepOpenCharge = (
  ps: TPaystack,
  providerReference: string,
  step: TOpenCharge['step'],
  card: TCardSummary,
) => ps.references.keep('open_charge', providerReference, { step, card } satisfies TOpenCharge);

export const forgetOpenCharge = (ps: TPaystack, providerReference: string) =>
  ps.references.forget('open_charge', providerReference);

/**
 * Paystack's record of our reference (a verify call at `path`); null when Paystack never saw
 * it, which closes the reference here.
 */
export async function recordOf<T>(
  ps: TPaystack,
  path: string,
  reference: string,
): Promise<T | null> {
  const providerReference = toPaystackReference(reference);
  const answer = await ps.client.read<T>({
    path: `${path}/${encodeURIComponent(providerReference)}`,
    call: `${path}/*`,
  });
  if (answer.ok) return answer.data;
  if (!isUnknownReference(answer)) {
    throw paystackNoAnswer(`${path} ${providerReference}`, answer.message);
  }
  await ps.references.close(reference);
  return null;
}

/** A charge call (card, bank transfer) whose answer was lost or refused as a duplicate. */
export async function chargeByReference(
  ps: TPaystack,
  providerReference: string,
): Promise<TPaystackCharge> {
  const answer = await ps.client.read<TPaystackCharge>(paystackPath`/charge/${providerReference}`);
  if (answer.ok) return answer.data;
  throw paystackNoAnswer(`the charge ${providerReference}`, answer.message);
}

/** What became of a transaction by our reference (card charges and debits alike). */
export async function requeryTransaction(
  ps: TPaystack,
  reference: string,
): Promise<TRequeryOutcome<{ authorization: TPaystackAuthorization | null }>> {
  const transaction = await recordOf<TPaystackTransaction>(ps, '/transaction/verify', reference);
  if (!transaction) return NEVER_ARRIVED;
  switch (transaction.status) {
    case 'success':
    case 'reversed':
      if (!takenInNaira(transaction)) {
        return {
          kind: 'not_taken',
          providerReference: transaction.reference,
          reason: `taken in ${transaction.currency ?? 'no currency named'}, not naira`,
        };
      }
      return {
        kind: 'taken',
        providerReference: transaction.reference,
        amount: transaction.amount,
        givenBack: transaction.status === 'reversed',
        authorization: transaction.authorization ?? null,
      };
    case 'failed': {
      // Refused while it waited at the issuer's 3-D Secure page: the payer or the issuer
      // declined the check, whatever Paystack's words (known in the process that charged).
      const reason = cardDeclineReason(transaction.gateway_response);
      const atThreeDs = (await openChargeOf(ps, transaction.reference))?.step === '3ds';
      return {
        kind: 'not_taken',
        providerReference: transaction.reference,
        reason: atThreeDs && reason === 'declined' ? 'three_ds_declined' : reason,
      };
    }
    default: {
      // Not decided yet: what the charge waits for, where it waits for the payer.
      const charge = await ps.client.read<TPaystackCharge>(
        paystackPath`/charge/${transaction.reference}`,
      );
      const status = charge.ok ? charge.data.status : null;
      return {
        kind: 'pending',
        awaiting: AWAITING_OF_STATUS[status ?? ''] ?? null,
        providerReference: transaction.reference,
      };
    }
  }
}

/** Paystack's record of a transaction by its reference (Verify Transaction). */
export async function verified(
  ps: TPaystack,
  providerReference: string,
): Promise<TPaystackTransaction> {
  const answer = await ps.client.read<TPaystackTransaction>(
    paystackPath`/transaction/verify/${providerReference}`,
  );
  if (answer.ok) return answer.data;
  throw paystackNoAnswer(`verify ${providerReference}`, answer.message);
}
