import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { paymentAttempts } from '../../db/schema';
import type { TPaymentAccess } from './payment-records';

/*
 * Whose a charge is (docs/payments.md "Who answers a charge"): a signed-in payer's charge is
 * theirs; a charge started without sign-in belongs to the page that started it, which alone got
 * the charge's token. Only the owner may answer it (its OTP); anyone else finds nothing.
 */

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('base64url');

/** A new charge token and what the attempt keeps of it (its SHA-256). */
export function newChargeToken(): { token: string; hash: string } {
  const token = `cht_${randomBytes(24).toString('base64url')}`;
  return { token, hash: hashOf(token) };
}

/** Whether `token` is the one the attempt's owner got. */
export const isTokenOf = (attempt: { ownerTokenHash: string | null }, token: string | undefined) =>
  token !== undefined &&
  attempt.ownerTokenHash !== null &&
  attempt.ownerTokenHash === hashOf(token);

/** The attempt made without sign-in whose token is `chargeToken`: the page's that holds it. */
export function ownedByPage(chargeToken: string | undefined): SQL {
  if (!chargeToken) return sql`false`;
  const owned = and(
    isNull(paymentAttempts.payerId),
    eq(paymentAttempts.ownerTokenHash, hashOf(chargeToken)),
  );
  return owned ?? sql`false`;
}

/** The attempts `access` owns: the signed-in payer's, or the anonymous one whose token is given. */
export function chargeOwnedBy(access: TPaymentAccess, chargeToken: string | undefined): SQL {
  if ('payerId' in access) return eq(paymentAttempts.payerId, access.payerId);
  return ownedByPage(chargeToken);
}

/**
 * Whether `access` may own the charge, as far as a read without its token can tell: the
 * signed-in payer who started it or, for a charge started without sign-in, a page of the
 * consent (which holds the token or not).
 */
export const mayOwnCharge = (attempt: { payerId: string | null }, access: TPaymentAccess) =>
  'payerId' in access ? attempt.payerId === access.payerId : attempt.payerId === null;
