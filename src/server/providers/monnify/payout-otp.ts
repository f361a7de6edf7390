import { eq } from 'drizzle-orm';
import type { TClock } from '../../clock';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/database';
import { payouts } from '../../db/schema';
import type { TRequeryOutcome } from '../ports/common';
import { monnifyProvider } from './monnify-provider';
import { PayoutOtpRefused } from './payouts';

/*
 * The operator's step for a payout Monnify holds for the merchant's OTP (`npm run
 * payout:authorise`, docs/providers/monnify.md "Payouts and Monnify's OTP"): the payout is found
 * by its id, which is the reference it was sent to Monnify with, and only a payout still paying
 * that names Monnify is authorised, with the code Monnify sent the merchant. Nothing is booked
 * here: the payout ends as every payout does, by Monnify's disbursement notice or the
 * reconciler's requery of the provider its row names.
 */

/** What became of an operator's authorisation of a payout. */
export type TPayoutAuthorisation =
  /** Monnify took the code: where the transfer stands after it (taken, refused, still pending). */
  | { kind: 'authorised'; outcome: TRequeryOutcome }
  /** Monnify refused the code (wrong, expired, or the transfer holds for none). */
  | { kind: 'refused'; reason: string }
  /** No payout has this id. */
  | { kind: 'unknown' }
  /** The payout was sent to another provider, which asks no OTP of ours. */
  | { kind: 'elsewhere'; provider: string }
  /** The payout ended already (completed or failed): nothing waits for a code. */
  | { kind: 'ended'; status: string }
  /** This server runs no Monnify adapter (its settings are missing). */
  | { kind: 'not_configured' };

export async function authoriseMonnifyPayout(
  deps: { db: TDb; clock: TClock; monnify: TConfig['monnify'] },
  payoutId: string,
  otp: string,
): Promise<TPayoutAuthorisation> {
  const [payout] = await deps.db
    .select({ provider: payouts.provider, status: payouts.status })
    .from(payouts)
    .where(eq(payouts.id, payoutId));
  if (!payout) return { kind: 'unknown' };
  if (payout.provider !== 'monnify') return { kind: 'elsewhere', provider: payout.provider };
  if (payout.status !== 'paying') return { kind: 'ended', status: payout.status };
  if (!deps.monnify) return { kind: 'not_configured' };
  const monnify = monnifyProvider({ ...deps.monnify, db: deps.db, clock: deps.clock });
  try {
    return {
      kind: 'authorised',
      outcome: await monnify.authorisePayout({ reference: payoutId, otp }),
    };
  } catch (error) {
    // No answer is thrown as it is: whether Monnify took the code is not known.
    if (!(error instanceof PayoutOtpRefused)) throw error;
    return { kind: 'refused', reason: error.message };
  }
}
