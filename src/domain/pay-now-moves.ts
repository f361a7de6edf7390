// The Immediate Payment screen's small moves: to the methods, completed, failed (with what was
// given back), a new try; and the texts of an attempt's outcome and of money returned.
import { offersTryAgainElsewhere, tryAgainElsewhereLines } from './card-retry-elsewhere';
import { PAGE_ERRORS } from './page-errors';
import { formatNaira } from './money';
import { paymentStatusReducer, type TPaymentStatusAction } from './payment-status';
import type { TPaymentAttemptState } from './schemas/payment';
import { type TReturned, type TPayNowState } from './pay-now-state';

const RETURN_REASONS: Readonly<
  Record<NonNullable<TPaymentAttemptState['returned']>['reason'], (due: string) => string>
> = {
  wrong_amount: (due) => `it was not the amount due (${due}).`,
  expired: () => 'it reached the one-time account after the account expired.',
  already_paid: () => 'this payment had already been paid.',
};

const returnText = ({ amount, reason }: TReturned, amountDue: number) =>
  `Your transfer of ${formatNaira(amount)} was sent back to you: ${RETURN_REASONS[reason](
    formatNaira(amountDue),
  )}`;

/**
 * Every transfer sent back, one line each in order, then the way on: the same account while it is
 * open (for the amount due), a new one once it has ended.
 */
export function returnsText(state: TPayNowState): string {
  const due = formatNaira(state.amountDue);
  return [
    ...state.returns.map((returned) => returnText(returned, state.amountDue)),
    state.detailsEnded
      ? 'That account is closed: Retry Payment gives you a new one, or try another method.'
      : `Retry Payment to send exactly ${due} to the same account, or try another method.`,
  ].join('\n');
}

/**
 * What the payer is told of an attempt that ended or gave money back: a transfer returned (how
 * much, and why), or a failure in the catalogue's words with whether the card was charged.
 */
export function attemptOutcomeText(attempt: TPaymentAttemptState, amountDue: number): string {
  if (attempt.returned) return returnText(attempt.returned, amountDue);
  if (offersTryAgainElsewhere(attempt)) {
    const failure = attemptOutcomeText({ ...attempt, retryElsewhere: false }, amountDue);
    return [failure, ...tryAgainElsewhereLines(attempt)].join(' ');
  }
  const message = (attempt.message?.trim() || PAGE_ERRORS.PAYMENT_FAILED.message).replace(
    /\.$/,
    '',
  );
  // CARD_BANK_NO_ANSWER's own words already say nothing was charged.
  if (attempt.charged === false && attempt.failureCode === 'CARD_BANK_NO_ANSWER')
    return `${message}.`;
  if (attempt.charged === false) return `${message}. Nothing was charged to your card.`;
  if (attempt.charged === true)
    return `${message}. Your card was charged; the money is being sent back to it.`;
  return attempt.message?.trim() || PAGE_ERRORS.PAYMENT_FAILED.message;
}

export const methodOf = (
  method: TPaymentAttemptState['method'] | null | undefined,
): 'transfer' | 'card' | null =>
  method === 'bank_transfer'
    ? 'transfer'
    : method === 'card' || method === 'chip_card'
      ? 'card'
      : null;

export const moveStatus = (
  state: TPayNowState,
  ...actions: TPaymentStatusAction[]
): TPayNowState => ({
  ...state,
  status: actions.reduce(paymentStatusReducer, state.status),
});

/** A new try from a failure: the status reducer's retry; from anywhere else, nothing to undo. */
export const fresh = (state: TPayNowState): TPayNowState => moveStatus(state, { type: 'retry' });

export const toMethods = (state: TPayNowState): TPayNowState => ({
  ...moveStatus(state, { type: 'cancel' }),
  view: 'methods',
  threeDs: { challengeUrl: null, expiresAt: null },
});

export const completed = (state: TPayNowState): TPayNowState => ({
  ...moveStatus(state, { type: 'completed' }),
  view: 'processing',
});

export const failed = (state: TPayNowState, message: string | null | undefined): TPayNowState => ({
  ...moveStatus(state, { type: 'failed', message }),
  view: 'processing',
});

/** Failed, or (already failed) told again with what has happened since. */
export const failedWith = (state: TPayNowState, text: string): TPayNowState =>
  state.status.phase === 'failed'
    ? { ...state, status: { ...state.status, error: text, stepText: text } }
    : failed(state, text);

export const sameReturn = (a: TReturned, b: TReturned | null | undefined) =>
  a.amount === b?.amount && a.reason === b.reason;
