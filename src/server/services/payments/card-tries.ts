import { createHmac } from 'node:crypto';
import { and, eq, gt, sql, type SQL } from 'drizzle-orm';
import { CARD_WRONG_TRIES_PER_PAYMENT } from '../../../domain/card-tries';
import type { TDb } from '../../db/database';
import { insertWhere } from '../../db/insert-where';
import { cardPaymentTries } from '../../db/schema';
import { AppError } from '../../app-error';
import { storedSecret } from '../../crypto/server-secrets';
import type { TOpeningStep } from './attempts/moves';

/*
 * Who may try a card on a payment, and how often (docs/payments.md "Limits"):
 *
 * - per payment and card, in the database: a card whose PIN or details were wrong
 *   CARD_WRONG_TRIES_PER_PAYMENT times is blocked for that payment. A charge claims a try before
 *   it reaches the network, in one statement that checks and counts (so concurrent charges cannot
 *   pass the limit together), and gives it back when the network's answer was neither a wrong PIN
 *   or detail nor a payment made (a paid payment is not tried again). A process that dies in
 *   between keeps the try: a crash never adds one.
 * - per card across payments, and per address: the rate-limit plugin's counters
 *   (src/server/rate-limits.ts), reached through TCardChargeLimits.
 *
 * A card is known here only by its key: an HMAC of its number under a server secret, so neither
 * the table nor the counters hold anything a card number can be found from.
 */

/** The key a card's tries are counted under: HMAC-SHA-256 of its number, base64url. */
export async function cardKeyOf(db: TDb, cardNumber: string): Promise<string> {
  const secret = await storedSecret(db, 'card-keys');
  return createHmac('sha256', secret).update(cardNumber, 'utf8').digest('base64url');
}

/** The limits a charge answers to beyond its payment: the card's refusals across payments. */
export type TCardChargeLimits = {
  /** 429 RATE_LIMITED (Retry-After) when the card was refused too often lately. */
  refuseBlockedCard(cardKey: string): Promise<void>;
  /** Counts a refusal of the card by its network. */
  recordDecline(cardKey: string): Promise<void>;
};

/**
 * The statement that claims a try of the card on the payment where `condition` holds: it adds one
 * where fewer than the limit are held, and answers the tries then held (no row: the card is
 * blocked on the payment). Not yet sent: claimCardTry sends it, a charge's opening makes it part
 * of its own (cardTryStep).
 */
function tryClaim(db: TDb, paymentId: string, cardKey: string, now: Date, condition: SQL) {
  return insertWhere(
    db,
    cardPaymentTries,
    { paymentId, cardKey, tries: 1, updatedAt: now },
    condition,
  )
    .onConflictDoUpdate({
      target: [cardPaymentTries.paymentId, cardPaymentTries.cardKey],
      set: { tries: sql`${cardPaymentTries.tries} + 1`, updatedAt: now },
      setWhere: sql`${cardPaymentTries.tries} < ${CARD_WRONG_TRIES_PER_PAYMENT}`,
    })
    .returning({ tries: cardPaymentTries.tries });
}

/**
 * Claims a try of the card on the payment (tryClaim), so a blocked card is refused (403
 * CARD_BLOCKED_FOR_PAYMENT) before anything reaches the network.
 */
export async function claimCardTry(
  db: TDb,
  paymentId: string,
  cardKey: string,
  now: Date,
): Promise<void> {
  const [claimed] = await tryClaim(db, paymentId, cardKey, now, sql`true`);
  if (!claimed) throw new AppError('CARD_BLOCKED_FOR_PAYMENT');
}

/**
 * A new charge's claim of its try, as a part of the statement that opens its attempt (openAttempt):
 * claimed only where the payment may be paid (`open`), and holding the attempt back when the card
 * is blocked on the payment.
 */
export function cardTryStep(
  db: TDb,
  open: SQL,
  claim: { paymentId: string; cardKey: string; now: Date },
): TOpeningStep & { holds: NonNullable<TOpeningStep['holds']> } {
  const claimed = db
    .$with('card_try')
    .as(tryClaim(db, claim.paymentId, claim.cardKey, claim.now, open));
  return {
    cte: claimed,
    holds: {
      condition: sql`exists (select 1 from ${claimed})`,
      refusal: 'CARD_BLOCKED_FOR_PAYMENT',
    },
  };
}

/** Gives back a try whose charge was answered otherwise than by a wrong PIN or card detail. */
export async function releaseCardTry(db: TDb, paymentId: string, cardKey: string): Promise<void> {
  await db
    .update(cardPaymentTries)
    .set({ tries: sql`${cardPaymentTries.tries} - 1` })
    .where(
      and(
        eq(cardPaymentTries.paymentId, paymentId),
        eq(cardPaymentTries.cardKey, cardKey),
        gt(cardPaymentTries.tries, 0),
      ),
    );
}
