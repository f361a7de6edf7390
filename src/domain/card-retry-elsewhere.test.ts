import { describe, expect, it } from 'vitest';
import {
  offersTryAgainElsewhere,
  TRY_AGAIN_ELSEWHERE_TEXT,
  UNCONFIRMED_CHARGE_TEXT,
} from './card-retry-elsewhere';
import { attemptOutcomeText } from './pay-now-moves';
import { payNowInitial, payNowReducer } from './pay-now-screen';
import { type TPayNowAction, type TPayNowState, type TStoredCard } from './pay-now-state';
import type { TEncryptedCard } from './schemas/card';
import type { TPaymentAttemptState, TPaymentStateResponse } from './schemas/payment';

const DUE = 250_000;
const start = () => payNowInitial({ paid: false, amountDue: DUE, origin: null, method: 'card' });
const run = (actions: TPayNowAction[], from: TPayNowState = start()) =>
  actions.reduce(payNowReducer, from);

const envelope = { version: 1, keyId: 'k1', encryptedData: 'c' };
const STORED: TStoredCard = {
  cardDetails: {
    encryptedCardNumber: envelope,
    encryptedExpiryDate: envelope,
    encryptedCvv: envelope,
  } as unknown as TEncryptedCard,
  saveCard: false,
  obfuscatedCard: '411111******1111',
};

/** The charge's attempt as the server tells it. */
const attempt = (over: Partial<TPaymentAttemptState>): TPaymentAttemptState => ({
  attemptId: 'att_1',
  method: 'card',
  state: 'charging',
  challengeUrl: null,
  expiresAt: null,
  failureCode: null,
  message: null,
  returned: null,
  charged: null,
  ...over,
});
const NOTHING_TAKEN = attempt({
  state: 'failed',
  failureCode: 'CARD_BANK_NO_ANSWER',
  message: 'Your bank did not answer. Nothing was charged.',
  charged: false,
  retryElsewhere: true,
});
const NEVER_SAID = attempt({
  state: 'failed',
  failureCode: 'CARD_PAYMENT_PROCESSING_FAILED',
  message: 'Failed to process card payment',
  charged: null,
  retryElsewhere: true,
});

/** The page's card sent, and the charge call answered 502: its processor did not answer. */
const noAnswer: TPayNowAction[] = [
  { type: 'pay_with_card' },
  { type: 'card_submitted', card: STORED, signedIn: true },
  { type: 'card_refused', message: 'Failed to process card payment', paymentFailure: true },
];
const told = (news: TPaymentAttemptState): TPayNowAction => ({
  type: 'event',
  event: { paymentId: 'pay_1', status: 'failed', message: news.message ?? '', attempt: news },
});

describe('Try Again through another card processor', () => {
  it('is offered only for a failed card attempt the server says may go elsewhere', () => {
    expect(offersTryAgainElsewhere(NOTHING_TAKEN)).toBe(true);
    expect(offersTryAgainElsewhere({ ...NOTHING_TAKEN, retryElsewhere: false })).toBe(false);
    expect(offersTryAgainElsewhere({ ...NOTHING_TAKEN, retryElsewhere: undefined })).toBe(false);
    expect(offersTryAgainElsewhere({ ...NOTHING_TAKEN, state: 'charging' })).toBe(false);
    expect(offersTryAgainElsewhere({ ...NOTHING_TAKEN, method: 'bank_transfer' })).toBe(false);
    expect(offersTryAgainElsewhere(null)).toBe(false);
  });

  it('says nothing was charged and what Try Again does, once the processor said it took nothing', () => {
    expect(attemptOutcomeText(NOTHING_TAKEN, DUE)).toBe(
      `Your bank did not answer. Nothing was charged. ${TRY_AGAIN_ELSEWHERE_TEXT}`,
    );
  });

  it('never says nothing was charged when the processor never said', () => {
    const text = attemptOutcomeText(NEVER_SAID, DUE);
    expect(text).toBe(
      `Failed to process card payment ${UNCONFIRMED_CHARGE_TEXT} ${TRY_AGAIN_ELSEWHERE_TEXT}`,
    );
    expect(text).not.toMatch(/Nothing was charged/);
  });

  it('replaces the charge call’s failure with the gate’s words when the stream tells it', () => {
    const failed = run(noAnswer);
    expect(failed.status.phase).toBe('failed');
    expect(offersTryAgainElsewhere(failed.attempt)).toBe(false);
    for (const news of [NOTHING_TAKEN, NEVER_SAID]) {
      const gated = run([told(news)], failed);
      expect(gated.view).toBe('processing');
      expect(gated.status.phase).toBe('failed');
      expect(gated.status.error).toBe(attemptOutcomeText(news, DUE));
      expect(offersTryAgainElsewhere(gated.attempt)).toBe(true);
    }
  });

  it('waits as the bank still answering when the charge had no answer, then offers Try Again, signed in or not', () => {
    for (const signedIn of [false, true]) {
      const waiting = run([
        { type: 'pay_with_card' },
        { type: 'card_submitted', card: STORED, signedIn },
        {
          type: 'card_answered',
          answer: { success: true, status: 'charging', transactionReference: 'att_1' },
        },
        // Unanswered: the stream says the charge is still out while its processor is asked.
        {
          type: 'event',
          event: { paymentId: 'pay_1', status: 'in_progress', attempt: attempt({}) },
        },
      ]);
      expect(waiting).toMatchObject({ view: 'processing', status: { phase: 'charging' } });
      const gated = run([told(NOTHING_TAKEN)], waiting);
      expect(gated.status).toMatchObject({
        phase: 'failed',
        error: `Your bank did not answer. Nothing was charged. ${TRY_AGAIN_ELSEWHERE_TEXT}`,
      });
      expect(offersTryAgainElsewhere(gated.attempt)).toBe(true);
    }
  });

  it('sends the card kept on the page again, for the next processor’s steps', () => {
    const gated = run([...noAnswer, told(NOTHING_TAKEN), { type: 'retry_card' }]);
    expect(gated.card.resending).toBe(true);
    expect(gated.storedCard).toEqual(STORED);
    // Sent, the offer is spent: the next try's own refusal offers the plain retry.
    const refused = run(
      [
        { type: 'card_submitted', card: null, signedIn: false },
        { type: 'card_refused', message: 'Card payment failed', paymentFailure: true },
      ],
      gated,
    );
    expect(refused.status.phase).toBe('failed');
    expect(offersTryAgainElsewhere(refused.attempt)).toBe(false);
  });

  it('opens the card form without a complaint after a reload, where no card is kept', () => {
    const read: TPaymentStateResponse = {
      success: true,
      paymentId: 'pay_1',
      status: 'failed',
      stepText: null,
      method: 'card',
      amount: DUE,
      executedAt: null,
      transferDetails: null,
      message: NOTHING_TAKEN.message,
      attempt: NOTHING_TAKEN,
      otpDisplayMessage: null,
      payerBank: null,
      shouldPromptBankAccountLinking: false,
      lastEventId: 7,
    };
    // Reloaded (or the server restarted): the page says what happened and what to do.
    const resumed = run([{ type: 'read', read, answersCharge: true }]);
    expect(resumed.view).toBe('processing');
    expect(resumed.status.phase).toBe('failed');
    expect(resumed.status.error).toBe(attemptOutcomeText(NOTHING_TAKEN, DUE));
    const form = run([{ type: 'retry_card' }], resumed);
    expect(form.view).toBe('card');
    expect(form.card.error).toBeNull();
    // A plain failure's retry without a kept card still says why the form opened.
    const plain = run(
      [
        {
          type: 'read',
          read: { ...read, attempt: { ...NOTHING_TAKEN, retryElsewhere: false } },
          answersCharge: true,
        },
        { type: 'retry_card' },
      ],
      start(),
    );
    expect(plain.card.error).not.toBeNull();
  });
});
