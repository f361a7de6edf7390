import { refusedCardMessage } from '../../../domain/card-refusal';
import { isCardRefusal } from '../../../domain/card-refusal-text';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import {
  ASKING_WINDOW_REASON,
  namedStateOf,
  offersRetryElsewhere,
  pageStateOf,
} from '../../../domain/payment-attempts';
import type { TPaymentAttemptState } from '../../../domain/schemas/payment';
import type { paymentAttempts } from '../../db/schema';

/*
 * An attempt as the page sees it (ZPaymentAttemptState): the payment read (payment-reads.ts) and
 * every payment event (emitPaymentEvent) carry it, so a page opened again draws what one that
 * watched the stream draws.
 */

type TAttemptRow = typeof paymentAttempts.$inferSelect;

/**
 * Whether a failed card or chip attempt took the payer's money: true when it was taken and is
 * given back (owed or refunded), false when the provider took nothing; null for other methods,
 * for an attempt not failed, and for a charge that failed over without its provider's word.
 */
function chargedOf(attempt: TAttemptRow): boolean | null {
  if (attempt.status !== 'failed') return null;
  if (attempt.method !== 'card' && attempt.method !== 'chip_card') return null;
  if (attempt.failureReason === ASKING_WINDOW_REASON) return null;
  return attempt.refund !== null || attempt.failureReason === 'given_back';
}

/** The failure as the charge's answer said it: a refused card keeps the issuer's reason. */
function failureMessageOf(attempt: TAttemptRow): string | null {
  const code = attempt.failureCode;
  if (code === null) return null;
  if (code === 'CARD_PAYMENT_FAILED' && isCardRefusal(attempt.failureReason))
    return refusedCardMessage(code, attempt.failureReason);
  return ERROR_CATALOGUE[code].message;
}

export function attemptViewOf(attempt: TAttemptRow): TPaymentAttemptState {
  const named = namedStateOf(attempt);
  if (!named) throw new Error(`Attempt ${attempt.id} is in no state of the table`);
  const state = pageStateOf(named);
  const failed = state === 'failed' && attempt.failureCode !== null;
  return {
    attemptId: attempt.id,
    method: attempt.method,
    state,
    challengeUrl: state === 'awaiting_3ds' ? attempt.challengeUrl : null,
    expiresAt:
      state === 'awaiting_transfer'
        ? (attempt.transferDetails?.expiresAt ?? null)
        : state === 'awaiting_3ds'
          ? (attempt.challengeExpiresAt?.toISOString() ?? null)
          : null,
    failureCode: failed ? attempt.failureCode : null,
    message: failed ? failureMessageOf(attempt) : null,
    returned: attempt.returned ?? null,
    charged: chargedOf(attempt),
    retryElsewhere: offersRetryElsewhere(named),
  };
}
