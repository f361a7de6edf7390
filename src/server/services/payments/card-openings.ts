import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { TAttemptState } from '../../../domain/payment-attempts';
import type { TDb } from '../../db/database';
import { paymentAttempts } from '../../db/schema';
import { attemptMove, inAttemptStates } from './attempts/moves';
import type { TOpeningStep } from './attempts/moves';
import { triedElsewhereSteps, type TCardRoute } from './card-failover';
import { cardTryStep } from './card-tries';
import { chargeOwnedBy } from './charge-owners';
import type { TPaymentAccess } from './payment-records';

/** A charge waiting on its payer: a PIN, an OTP or a 3-D Secure check. */
const AWAITING_PAYER: readonly TAttemptState[] = ['awaiting_pin', 'awaiting_otp', 'awaiting_3ds'];

/**
 * A new card charge's parts of its attempt's opening statement (openAttempt): its try on the
 * payment claimed, then, where it was, the caller's own charge left waiting for a PIN, an OTP or a
 * 3-D Secure check giving way to the new card (another caller's is theirs to answer, and stays; a
 * page without sign-in has a new token for each charge, so its older charge stays waiting,
 * unanswerable, until one pays), and a failed-over charge tried elsewhere.
 */
export function newCardSteps(
  tx: TDb,
  open: SQL,
  now: Date,
  charge: { paymentId: string; cardKey: string; access: TPaymentAccess; route: TCardRoute },
): TOpeningStep[] {
  const claim = cardTryStep(tx, open, {
    paymentId: charge.paymentId,
    cardKey: charge.cardKey,
    now,
  });
  const claimed = sql`${open} and ${claim.holds.condition}`;
  const superseded = attemptMove(
    tx,
    and(
      eq(paymentAttempts.paymentId, charge.paymentId),
      inAttemptStates(AWAITING_PAYER),
      chargeOwnedBy(charge.access, undefined),
      claimed,
    ),
    'abandon',
    { failureCode: 'PAYMENT_FAILED', failureReason: 'superseded' },
    now,
  );
  return [
    claim,
    { cte: tx.$with('superseded').as(superseded) },
    ...triedElsewhereSteps(tx, charge.route, claimed, now),
  ];
}
