import { describe, expect, it } from 'vitest';
import { afterPaymentPrompt } from './after-payment';
import { STEP_TEXT_AWAITING_3DS, STEP_TEXT_AWAITING_TRANSFER } from './constants';
import { attemptOutcomeText } from './pay-now-moves';
import { eventOfRead } from './pay-now-server-news';
import {
  needsTransferAccount,
  payNowHeader,
  payNowInitial,
  payNowReducer,
  processingControls,
} from './pay-now-screen';
import { type TPayNowAction, type TPayNowState, type TStoredCard } from './pay-now-state';
import type { TEncryptedCard } from './schemas/card';
import type {
  TPaymentAttemptState,
  TPaymentStateResponse,
  TTransferDetails,
} from './schemas/payment';

const DUE = 250_000;
const start = () =>
  payNowInitial({ paid: false, amountDue: DUE, origin: null, method: 'transfer' });
const run = (actions: TPayNowAction[], from: TPayNowState = start()) =>
  actions.reduce(payNowReducer, from);

const envelope = {
  version: 1,
  algorithm: 'RSA-OAEP-256+AES-256-GCM',
  keyId: 'k1',
  encryptedAesKey: 'a',
  iv: 'b',
  encryptedData: 'c',
};
const STORED: TStoredCard = {
  cardDetails: {
    encryptedCardNumber: envelope,
    encryptedExpiryDate: envelope,
    encryptedCvv: envelope,
    encryptedPin: envelope,
  } as unknown as TEncryptedCard,
  saveCard: false,
  obfuscatedCard: '408408******0003',
};
const DETAILS: TTransferDetails = {
  amount: DUE,
  bankName: 'Rubies MFB',
  accountNumber: '9900000001',
  accountName: 'Oya Money / Order 1042',
  expiresAt: '2026-11-25T07:00:00.000Z',
};
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
const read = (over: Partial<TPaymentStateResponse>): TPaymentStateResponse => ({
  success: true,
  paymentId: 'pay_1',
  status: 'pending',
  stepText: null,
  method: null,
  amount: DUE,
  executedAt: null,
  transferDetails: null,
  message: null,
  attempt: null,
  otpDisplayMessage: null,
  payerBank: null,
  shouldPromptBankAccountLinking: false,
  lastEventId: 4,
  ...over,
});
const resumed = (over: Partial<TPaymentStateResponse>, answersCharge = true) =>
  run([{ type: 'read', read: read(over), answersCharge }]);

const chargeCard: TPayNowAction[] = [
  { type: 'pay_with_card' },
  { type: 'card_submitted', card: STORED, signedIn: false },
];
const onOtpScreen: TPayNowAction[] = [
  ...chargeCard,
  {
    type: 'card_answered',
    answer: { success: false, requiresOTP: true, displayMessage: 'Enter OTP' },
  },
];
const CHALLENGE = 'http://localhost/sandbox/3ds/ch_1';
const awaiting3ds: TPayNowAction[] = [
  ...chargeCard,
  { type: 'card_answered', answer: { success: false, requires3DS: true, challengeUrl: CHALLENGE } },
  { type: 'three_ds_opened' },
];
const transferAwaited: TPayNowAction[] = [
  { type: 'pay_by_transfer' },
  { type: 'transfer_opened', details: DETAILS },
  { type: 'transfer_confirmed', status: 'in_progress' },
];

describe('payNowReducer: choosing a method', () => {
  it('starts at the methods, pending, or at its end when paid before the page opened', () => {
    expect(start()).toMatchObject({ view: 'methods', status: { phase: 'pending' } });
    const paid = payNowInitial({ paid: true, amountDue: DUE, origin: null, method: 'card' });
    expect(paid).toMatchObject({ view: 'processing', status: { phase: 'completed' } });
  });

  it('Pay by Transfer shows the transfer view; its account is the one opened', () => {
    const state = run([{ type: 'pay_by_transfer' }, { type: 'transfer_opened', details: DETAILS }]);
    expect(state).toMatchObject({ view: 'transfer', method: 'transfer', details: DETAILS });
    expect(state.report).toMatchObject({ n: 1, method: 'bank_transfer' });
  });

  it('back returns to the methods', () => {
    expect(run([{ type: 'pay_with_card' }, { type: 'back' }]).view).toBe('methods');
  });
});

describe('payNowReducer: transfer (items 2, 3)', () => {
  it("'I have made the transfer' is in progress at 33% 'Payment Received', header no longer Pending", () => {
    const state = run(transferAwaited);
    expect(state.view).toBe('processing');
    expect(state.status).toMatchObject({
      phase: 'awaiting_transfer',
      progress: 33,
      stepText: STEP_TEXT_AWAITING_TRANSFER,
    });
    expect(payNowHeader(state)).toEqual({ badge: 'In progress', amountText: 'being paid' });
    expect(payNowHeader(start())).toEqual({ badge: 'Pending', amountText: 'due now' });
  });

  it('while the transfer is awaited, its details and cancel stay reachable', () => {
    expect(processingControls(run(transferAwaited))).toEqual({
      viewTransferDetails: true,
      reconnect: null,
      cancel: 'local',
    });
    expect(run([...transferAwaited, { type: 'view_transfer_details' }]).view).toBe('transfer');
  });

  it('the completed event: 66% Payment Processed, then 100% after the delay; header paid', () => {
    const processed = run([
      ...transferAwaited,
      {
        type: 'event',
        event: { paymentId: 'pay_1', status: 'completed', paymentType: 'bank_transfer' },
      },
    ]);
    expect(processed.status).toMatchObject({ phase: 'processed', progress: 66 });
    expect(payNowHeader(processed)).toEqual({ badge: 'Completed', amountText: 'paid' });
    expect(run([{ type: 'completion_delay_elapsed' }], processed).status.progress).toBe(100);
  });

  it.each([
    ['wrong_amount', 100_000, 'awaiting_transfer', 'it was not the amount due (₦2,500.00).'],
    ['expired', DUE, 'failed', 'it reached the one-time account after the account expired.'],
  ] as const)(
    'a transfer returned (%s) says so, with the amount, and offers Retry / another method',
    (reason, amount, attemptState, why) => {
      const state = run([
        ...transferAwaited,
        {
          type: 'event',
          event: {
            paymentId: 'pay_1',
            status: attemptState === 'failed' ? 'failed' : 'in_progress',
            attempt: attempt({
              method: 'bank_transfer',
              state: attemptState,
              returned: { amount, reason },
            }),
          },
        },
      ]);
      expect(state.view).toBe('processing');
      expect(state.status.phase).toBe('failed');
      expect(state.status.error).toContain(`Your transfer of ₦`);
      expect(state.status.error).toContain(why);
    },
  );

  it('a wrong amount, the account ended, then a late transfer: each return said, in order, with the way on', () => {
    const transferEvent = (over: Partial<TPaymentAttemptState>): TPayNowAction => ({
      type: 'event',
      event: {
        paymentId: 'pay_1',
        status: over.state === 'failed' ? 'failed' : 'in_progress',
        attempt: attempt({ method: 'bank_transfer', state: 'awaiting_transfer', ...over }),
      },
    });
    const wrong = { amount: 100_000, reason: 'wrong_amount' } as const;
    const first = run([...transferAwaited, transferEvent({ returned: wrong })]);
    expect(first.status.error).toBe(
      'Your transfer of ₦1,000.00 was sent back to you: it was not the amount due (₦2,500.00).\n' +
        'Retry Payment to send exactly ₦2,500.00 to the same account, or try another method.',
    );
    const ended = run(
      [
        transferEvent({
          state: 'failed',
          failureCode: 'TRANSFER_ACCOUNT_EXPIRED',
          returned: wrong,
        }),
      ],
      first,
    );
    expect(ended.returns).toEqual([wrong]);
    expect(ended.status.error?.split('\n')[1]).toBe(
      'That account is closed: Retry Payment gives you a new one, or try another method.',
    );
    const late = run(
      [transferEvent({ state: 'failed', returned: { amount: DUE, reason: 'expired' } })],
      ended,
    );
    expect(late.status).toMatchObject({ phase: 'failed' });
    expect(late.status.error?.split('\n')).toEqual([
      'Your transfer of ₦1,000.00 was sent back to you: it was not the amount due (₦2,500.00).',
      'Your transfer of ₦2,500.00 was sent back to you: it reached the one-time account after the account expired.',
      'That account is closed: Retry Payment gives you a new one, or try another method.',
    ]);
    // The same event told twice (the stream, then its poll) is one return.
    expect(
      run([transferEvent({ state: 'failed', returned: { amount: DUE, reason: 'expired' } })], late)
        .returns,
    ).toHaveLength(2);
  });

  it('an account the server ended is shown ended; Pay by Transfer then asks for a new one', () => {
    const now = new Date('2026-11-25T06:40:00.000Z');
    const open = run([{ type: 'pay_by_transfer' }, { type: 'transfer_opened', details: DETAILS }]);
    expect(needsTransferAccount(open, now)).toBe(false);
    const ended = run(
      [
        {
          type: 'event',
          event: {
            paymentId: 'pay_1',
            status: 'failed',
            attempt: attempt({ method: 'bank_transfer', state: 'failed', failureCode: 'x' }),
          },
        },
      ],
      open,
    );
    expect(ended.detailsEnded).toBe(true);
    expect(needsTransferAccount(ended, now)).toBe(true);
    const renewed = run(
      [{ type: 'transfer_opened', details: { ...DETAILS, accountNumber: '9900000002' } }],
      ended,
    );
    expect(renewed.detailsEnded).toBe(false);
  });

  it('a reload after a returned transfer says what happened', () => {
    const state = resumed({
      status: 'failed',
      method: 'bank_transfer',
      attempt: attempt({
        method: 'bank_transfer',
        state: 'failed',
        returned: { amount: DUE, reason: 'expired' },
      }),
    });
    expect(state).toMatchObject({ view: 'processing', detailsEnded: true, method: 'transfer' });
    expect(state.status.error).toContain('after the account expired');
  });

  it('a transfer made on another device shows here in progress', () => {
    const state = run([
      {
        type: 'event',
        event: { paymentId: 'pay_1', status: 'in_progress', stepText: STEP_TEXT_AWAITING_TRANSFER },
      },
    ]);
    expect(state).toMatchObject({ view: 'processing', status: { phase: 'awaiting_transfer' } });
  });
});

describe('payNowReducer: card (items 4, 5)', () => {
  it('a charge sent is charging; after a while the bank is said to be still answering', () => {
    const sent = run(chargeCard);
    expect(sent.card).toMatchObject({ charging: true, slow: false });
    expect(run([{ type: 'card_slow' }], sent).card.slow).toBe(true);
    // Once answered, a late timer says nothing.
    const answered = run([{ type: 'card_answered', answer: { success: true } }], sent);
    expect(run([{ type: 'card_slow' }], answered)).toBe(answered);
  });

  it("the charge answered 'charging': the processing view says the bank is still answering", () => {
    const state = run([
      ...chargeCard,
      { type: 'card_answered', answer: { success: true, status: 'charging' } },
    ]);
    expect(state).toMatchObject({
      view: 'processing',
      status: { phase: 'charging', stepText: 'Your bank is still answering...' },
    });
    expect(processingControls(state).cancel).toBeNull();
  });

  it.each([
    [false, 'Card payment failed. Nothing was charged to your card.'],
    [true, 'Card payment failed. Your card was charged; the money is being sent back to it.'],
  ])('a charge that ends failed (charged=%s) says plainly what was charged', (charged, text) => {
    const state = run([
      ...chargeCard,
      { type: 'card_answered', answer: { success: true, status: 'charging' } },
      {
        type: 'event',
        event: {
          paymentId: 'pay_1',
          status: 'failed',
          paymentType: 'card',
          attempt: attempt({ state: 'failed', message: 'Card payment failed', charged }),
        },
      },
    ]);
    expect(state.status).toMatchObject({ phase: 'failed', error: text });
  });

  describe("a step the issuer asks after the charge was answered 'charging'", () => {
    const answeredCharging: TPayNowAction[] = [
      ...chargeCard,
      {
        type: 'card_answered',
        answer: { success: true, status: 'charging', transactionReference: 'att_1' },
      },
    ];
    const stepEvent = (
      over: Partial<TPaymentAttemptState>,
      otpDisplayMessage?: string,
    ): TPayNowAction => ({
      type: 'event',
      event: {
        paymentId: 'pay_1',
        status: 'in_progress',
        paymentType: 'card',
        attempt: attempt(over),
        ...(otpDisplayMessage === undefined ? {} : { otpDisplayMessage }),
      },
    });

    it('3-D Secure heard on the stream: the check shows, not the bank still answering', () => {
      const state = run([
        ...answeredCharging,
        stepEvent({
          state: 'awaiting_3ds',
          challengeUrl: CHALLENGE,
          expiresAt: '2026-11-25T07:10:00.000Z',
        }),
      ]);
      expect(state).toMatchObject({
        view: 'three_ds',
        threeDs: { challengeUrl: CHALLENGE, expiresAt: '2026-11-25T07:10:00.000Z' },
        status: { phase: 'pending' },
        awaitedCharge: null,
      });
      expect(payNowHeader(state).badge).toBe('Pending');
    });

    it("an OTP heard on the stream: the OTP screen with the bank's words", () => {
      const state = run([
        ...answeredCharging,
        stepEvent({ state: 'awaiting_otp' }, 'Enter the OTP sent to 080******12'),
      ]);
      expect(state).toMatchObject({
        view: 'otp',
        otp: { displayMessage: 'Enter the OTP sent to 080******12', ended: false },
        status: { phase: 'pending' },
      });
    });

    it("a PIN heard on the stream: 'Enter Card PIN'", () => {
      expect(run([...answeredCharging, stepEvent({ state: 'awaiting_pin' })]).view).toBe(
        'card_pin',
      );
    });

    it('the same step read by the poll that stands in for a lost stream', () => {
      const polled = eventOfRead(
        read({
          status: 'in_progress',
          method: 'card',
          attempt: attempt({ state: 'awaiting_3ds', challengeUrl: CHALLENGE }),
        }),
      );
      if (!polled) throw new Error('An attempt in progress reads as an event');
      const state = run([...answeredCharging, { type: 'event', event: polled }]);
      expect(state).toMatchObject({ view: 'three_ds', threeDs: { challengeUrl: CHALLENGE } });
    });

    it('heard before the call came back (a signed-in stream): the step shows once it does', () => {
      const state = run([
        ...chargeCard,
        stepEvent({ state: 'awaiting_3ds', challengeUrl: CHALLENGE }),
        {
          type: 'card_answered',
          answer: { success: true, status: 'charging', transactionReference: 'att_1' },
        },
      ]);
      expect(state).toMatchObject({ view: 'three_ds', threeDs: { challengeUrl: CHALLENGE } });
    });

    it("another charge's step (another tab of the payer) leaves this page waiting", () => {
      const state = run([
        ...answeredCharging,
        stepEvent({ attemptId: 'att_2', state: 'awaiting_3ds', challengeUrl: CHALLENGE }),
      ]);
      expect(state).toMatchObject({ view: 'processing', status: { phase: 'charging' } });
    });
  });

  it('a refusal answered first, then the attempt: the page says what was charged', () => {
    const state = run([
      ...chargeCard,
      { type: 'card_refused', message: 'Failed to process card payment', paymentFailure: true },
      {
        type: 'event',
        event: {
          paymentId: 'pay_1',
          status: 'failed',
          paymentType: 'card',
          attempt: attempt({
            state: 'failed',
            failureCode: 'CARD_BANK_NO_ANSWER',
            message: 'Your bank did not answer. Nothing was charged.',
            charged: false,
          }),
        },
      },
    ]);
    // Said once: the catalogue's words for a bank that never answered already say it.
    expect(state.status.error).toBe('Your bank did not answer. Nothing was charged.');
  });

  it('a reload during a charge resumes it: processing, the bank still answering', () => {
    const state = resumed({
      status: 'in_progress',
      method: 'card',
      attempt: attempt({ state: 'charging' }),
    });
    expect(state).toMatchObject({
      view: 'processing',
      method: 'card',
      status: { phase: 'charging' },
    });
    const done = run(
      [{ type: 'event', event: { paymentId: 'pay_1', status: 'completed', paymentType: 'card' } }],
      state,
    );
    expect(done.status.phase).toBe('processed');
  });

  it("the bank's refusal fails the payment; a form error goes back to the form", () => {
    expect(
      run([...chargeCard, { type: 'card_refused', message: 'Declined', paymentFailure: true }]),
    ).toMatchObject({ view: 'processing', status: { phase: 'failed', error: 'Declined' } });
    expect(
      run([...chargeCard, { type: 'card_refused', message: 'Bad card', paymentFailure: false }]),
    ).toMatchObject({ view: 'card', card: { error: 'Bad card', charging: false } });
  });

  it('a charge in flight stays on its form when the stream says the bank has it', () => {
    const state = run([
      ...chargeCard,
      {
        type: 'event',
        event: {
          paymentId: 'pay_1',
          status: 'in_progress',
          paymentType: 'card',
          attempt: attempt({}),
        },
      },
    ]);
    expect(state.view).toBe('card');
    expect(payNowHeader(state).badge).toBe('Pending');
  });

  it('a wrong OTP ends the attempt: boxes renewed, nothing to verify, Retry Payment', () => {
    const before = run(onOtpScreen);
    const state = run(
      [{ type: 'otp_verifying' }, { type: 'otp_refused', message: 'OTP verification failed' }],
      before,
    );
    expect(state.view).toBe('otp');
    expect(state.otp).toMatchObject({
      ended: true,
      error: 'OTP verification failed',
      verifying: false,
    });
    expect(state.otp.round).toBeGreaterThan(before.otp.round);
    // Nothing is being paid: the header says it is due.
    expect(payNowHeader(state)).toEqual({ badge: 'Pending', amountText: 'due now' });
    // Retry Payment: the stored card again, a new OTP screen.
    const retried = run(
      [
        { type: 'retry_card' },
        { type: 'card_submitted', card: null, signedIn: false },
        {
          type: 'card_answered',
          answer: { success: false, requiresOTP: true, displayMessage: 'Again' },
        },
      ],
      state,
    );
    expect(retried.otp).toMatchObject({ ended: false, error: null, displayMessage: 'Again' });
  });

  it("a card whose issuer asks for its PIN: 'Enter Card PIN', then the charge goes on", () => {
    const asked = run([
      ...chargeCard,
      { type: 'card_answered', answer: { success: true, requiresPIN: true } },
    ]);
    expect(asked).toMatchObject({
      view: 'card_pin',
      card: { charging: false },
      storedCard: STORED,
    });
    const sending = payNowReducer(asked, { type: 'pin_submitted' });
    expect(sending).toMatchObject({ view: 'card_pin', card: { charging: true, error: null } });
    expect(sending.report).toEqual(asked.report);
    const otp = payNowReducer(sending, {
      type: 'card_answered',
      answer: { success: false, requiresOTP: true, displayMessage: 'Enter OTP' },
    });
    expect(otp).toMatchObject({ view: 'otp', card: { charging: false } });
    // 'back' from the PIN goes to the card's details, not the methods.
    expect(payNowReducer(asked, { type: 'back' }).view).toBe('card');
  });

  it('a wrong PIN fails the payment; Retry Payment sends the card again, which asks for it again', () => {
    const wrong = run([
      ...chargeCard,
      { type: 'card_answered', answer: { success: true, requiresPIN: true } },
      { type: 'pin_submitted' },
      { type: 'card_refused', message: 'Incorrect PIN', paymentFailure: true },
    ]);
    expect(wrong).toMatchObject({ view: 'processing', status: { phase: 'failed' } });
    const again = run(
      [
        { type: 'retry_card' },
        { type: 'card_submitted', card: null, signedIn: false },
        { type: 'card_answered', answer: { success: true, requiresPIN: true } },
      ],
      wrong,
    );
    expect(again).toMatchObject({ view: 'card_pin', storedCard: STORED });
  });

  it.each(['awaiting_pin', 'charging'] as const)(
    'the wrong PIN’s end heard late on the stream (last heard %s) does not fail the retry, which pays',
    (heard) => {
      const first = attempt({ attemptId: 'att_1', state: heard });
      const wrong = run([
        ...chargeCard,
        { type: 'event', event: { paymentId: 'pay_1', status: 'in_progress', attempt: first } },
        { type: 'card_answered', answer: { success: true, requiresPIN: true } },
        { type: 'pin_submitted' },
        { type: 'card_refused', message: 'Incorrect PIN', paymentFailure: true },
      ]);
      const retrying = run(
        [
          { type: 'retry_card' },
          { type: 'card_submitted', card: null, signedIn: false },
          { type: 'card_answered', answer: { success: true, requiresPIN: true } },
          { type: 'pin_submitted' },
          // The first charge's failure, late: the second is still with the bank.
          {
            type: 'event',
            event: {
              paymentId: 'pay_1',
              status: 'failed',
              message: 'Incorrect PIN',
              attempt: { ...first, state: 'failed', charged: false },
            },
          },
        ],
        wrong,
      );
      expect(retrying.status.phase).not.toBe('failed');
      const paid = run([{ type: 'card_answered', answer: { success: true } }], retrying);
      expect(paid.status.phase).toBe('processed');
    },
  );

  it("an OTP refused for 'Insufficient funds' returns to the methods without that card (spec §4)", () => {
    const state = run([...onOtpScreen, { type: 'otp_refused', message: 'Insufficient funds' }]);
    expect(state).toMatchObject({
      view: 'methods',
      status: { phase: 'pending' },
      storedCard: null,
    });
  });

  it("'Try Another Method' after 'Insufficient funds' offers the methods without that card", () => {
    const failed = run([
      ...chargeCard,
      { type: 'card_refused', message: 'Insufficient funds', paymentFailure: true },
    ]);
    expect(failed.storedCard).toEqual(STORED);
    expect(run([{ type: 'cancel' }], failed)).toMatchObject({ view: 'methods', storedCard: null });
    // Refused for another reason, the card is offered to send again ('Pay with Card | …').
    const declined = run([
      ...chargeCard,
      { type: 'card_refused', message: 'Declined by your bank', paymentFailure: true },
      { type: 'cancel' },
    ]);
    expect(declined).toMatchObject({ view: 'methods', storedCard: STORED });
    // A card charge the payer cancels (3-D Secure not finished) keeps the card to pay with.
    const cancelled = run([
      ...awaiting3ds,
      { type: 'three_ds_cancelled', attempt: attempt({ state: 'failed' }) },
    ]);
    expect(cancelled).toMatchObject({ view: 'methods', storedCard: STORED });
    // One its bank did not say of is followed, not offered again.
    const unsaid = run([
      ...awaiting3ds,
      { type: 'three_ds_cancelled', attempt: attempt({ state: 'charging' }) },
    ]);
    expect(unsaid).toMatchObject({ view: 'processing', awaitedCharge: 'att_1' });
  });

  it('the right OTP completes the payment', () => {
    expect(run([...onOtpScreen, { type: 'otp_verified', answer: {} }]).status.phase).toBe(
      'processed',
    );
  });

  it('an OTP its bank did not answer shows the processing step, following the charge', () => {
    const verified = run([
      ...onOtpScreen,
      { type: 'otp_verified', answer: { status: 'charging', transactionReference: 'att_1' } },
    ]);
    expect(verified).toMatchObject({ view: 'processing', awaitedCharge: 'att_1' });
    expect(verified.status.phase).not.toBe('processed');
  });

  it('Retry Payment without a stored card opens the form, saying why', () => {
    const state = run([
      { type: 'event', event: { paymentId: 'pay_1', status: 'failed' } },
      { type: 'retry_card' },
    ]);
    expect(state).toMatchObject({
      view: 'card',
      card: { error: 'No stored card details found for retry' },
    });
  });

  it('drops the stored card when its envelopes can never go through (a retired key): the form asks for it again', () => {
    const refused = run([
      ...chargeCard,
      {
        type: 'card_refused',
        message:
          'Card details were encrypted with a key that is no longer used. Please enter them again.',
        paymentFailure: false,
        unusableEnvelope: true,
      },
    ]);
    expect(refused).toMatchObject({ view: 'card', storedCard: null });
    expect(run([{ type: 'retry_card' }], refused)).toMatchObject({
      view: 'card',
      card: { error: 'No stored card details found for retry', resending: false },
    });
    // Any other form error keeps the stored card to send again.
    expect(
      run([...chargeCard, { type: 'card_refused', message: 'Bad card', paymentFailure: false }])
        .storedCard,
    ).toEqual(STORED);
  });

  it('Retry Payment from Payment Failed shows Retrying payment..., the stored card resent', () => {
    const failed = run([
      ...chargeCard,
      { type: 'card_refused', message: 'No', paymentFailure: true },
    ]);
    const state = run([{ type: 'retry_card' }], failed);
    expect(state.status.phase).toBe('retrying');
    expect(state.card.resending).toBe(true);
    expect(run([{ type: 'retry_card' }], state)).toBe(state);
  });
});

describe('payNowReducer: 3-D Secure (item 1)', () => {
  it('the challenge opened: awaiting at 25%, with Reconnect to the challenge and a cancel', () => {
    const state = run(awaiting3ds);
    expect(state.status).toMatchObject({ phase: 'awaiting_3ds', progress: 25 });
    expect(processingControls(state)).toEqual({
      viewTransferDetails: false,
      reconnect: CHALLENGE,
      cancel: 'three_ds',
    });
  });

  it('a reload on the 3-D Secure wait resumes it with the challenge from the read', () => {
    const state = resumed({
      status: 'in_progress',
      method: 'card',
      stepText: STEP_TEXT_AWAITING_3DS,
      attempt: attempt({ state: 'awaiting_3ds', challengeUrl: CHALLENGE, expiresAt: 'x' }),
    });
    expect(state.view).toBe('processing');
    expect(processingControls(state).reconnect).toBe(CHALLENGE);
  });

  it('cancelled on the server: back to the methods', () => {
    const ended = attempt({ state: 'failed', failureCode: 'THREE_DS_FAILED' });
    const state = run([...awaiting3ds, { type: 'three_ds_cancelled', attempt: ended }]);
    expect(state).toMatchObject({ view: 'methods', status: { phase: 'pending' } });
    expect(state.threeDs.challengeUrl).toBeNull();
  });

  it('cancelled, but the bank had approved the check meanwhile: paid, not back to the methods', () => {
    const state = run([
      ...awaiting3ds,
      { type: 'three_ds_cancelled', attempt: attempt({ state: 'completed' }) },
    ]);
    expect(state.view).toBe('processing');
    expect(state.status.phase).toBe('processed');
  });

  // The reconciler ends a challenge unanswered for 10 minutes, whether or not the payer opened it.
  it.each([
    ['after the payer opened the challenge', awaiting3ds],
    ['before the payer opened the challenge', awaiting3ds.slice(0, -1)],
  ])("ended by the server %s: Payment Failed, '3DS authentication failed'", (_when, before) => {
    const state = run([
      ...before,
      {
        type: 'event',
        event: {
          paymentId: 'pay_1',
          status: 'failed',
          paymentType: 'card',
          message: '3DS authentication failed',
          attempt: attempt({ state: 'failed', message: '3DS authentication failed' }),
        },
      },
    ]);
    expect(state).toMatchObject({
      view: 'processing',
      status: { phase: 'failed', error: '3DS authentication failed' },
    });
    expect(processingControls(state).reconnect).toBeNull();
  });

  it('shows the challenge step until the payer opens it', () => {
    expect(run(awaiting3ds.slice(0, -1)).view).toBe('three_ds');
  });
});

describe('payNowReducer: reload (read) and item 12', () => {
  it('a transfer read keeps the source a transfer, whatever the page began with', () => {
    const state = run(
      [
        {
          type: 'read',
          read: read({
            status: 'in_progress',
            method: 'bank_transfer',
            stepText: STEP_TEXT_AWAITING_TRANSFER,
            transferDetails: DETAILS,
          }),
          answersCharge: false,
        },
      ],
      payNowInitial({ paid: false, amountDue: DUE, origin: null, method: 'card' }),
    );
    expect(state).toMatchObject({ method: 'transfer', view: 'processing', details: DETAILS });
  });

  it('a card waiting for its OTP shows the OTP screen, only in the tab that may answer it', () => {
    const waiting = { status: 'in_progress', method: 'card', otpDisplayMessage: 'Enter' } as const;
    expect(resumed(waiting).view).toBe('otp');
    expect(resumed(waiting, false).view).toBe('methods');
  });

  it('a card waiting for its PIN shows the PIN step again, with the card this tab kept', () => {
    const waiting = read({
      status: 'in_progress',
      method: 'card',
      attempt: attempt({ state: 'awaiting_pin' }),
    });
    const reloaded = run([{ type: 'read', read: waiting, answersCharge: true, pinCard: STORED }]);
    expect(reloaded).toMatchObject({ method: 'card', view: 'card_pin', storedCard: STORED });
    // Another tab, or one that kept no card, has nothing to send the PIN with.
    const elsewhere = [
      { type: 'read', read: waiting, answersCharge: false, pinCard: STORED },
      { type: 'read', read: waiting, answersCharge: true, pinCard: null },
    ] as const;
    for (const action of elsewhere) expect(run([action]).view).toBe('methods');
  });

  it('a read is applied once: a later one changes nothing', () => {
    const once = resumed({ status: 'in_progress', method: 'bank_transfer' });
    const again = run(
      [{ type: 'read', read: read({ status: 'completed' }), answersCharge: true }],
      once,
    );
    expect(again).toBe(once);
  });

  it('paid before the page opened, the read names the account in full for the prompt', () => {
    const masked = {
      bankName: 'GTBank',
      accountName: null,
      accountNumber: '****6785',
      institutionCode: '000013',
    };
    const whole = { ...masked, accountName: 'Adaeze Okafor', accountNumber: '0123456785' };
    const paid = payNowInitial({
      paid: true,
      amountDue: DUE,
      origin: {
        method: 'transfer',
        payerBank: masked,
        shouldPromptBankAccountLinking: true,
        shouldPromptCardLinking: false,
      },
      method: 'transfer',
    });
    const state = run(
      [
        {
          type: 'read',
          read: read({ status: 'completed', payerBank: whole }),
          answersCharge: true,
        },
      ],
      paid,
    );
    expect(state.origin?.payerBank).toEqual(whole);
  });

  it('paid while the page did not watch, the read names the account for the prompt', () => {
    // The screen drawn again after a sign-in, from a consent read before the payment.
    const bank = {
      bankName: 'GTBank',
      accountName: 'Adaeze Okafor',
      accountNumber: '0123456785',
      institutionCode: '000013',
    };
    const state = resumed({
      status: 'completed',
      method: 'bank_transfer',
      payerBank: bank,
      shouldPromptBankAccountLinking: true,
    });
    expect(state.origin).toEqual({
      method: 'transfer',
      payerBank: bank,
      shouldPromptBankAccountLinking: true,
      shouldPromptCardLinking: false,
    });
    if (!state.origin) throw new Error('the read named no origin');
    expect(
      afterPaymentPrompt({
        origin: state.origin,
        signedIn: true,
        signedInWhenPaid: false,
        holdsChargeToken: false,
        granted: false,
        settled: false,
      }),
    ).toEqual({ kind: 'link_origin', payerBank: bank });
  });

  it('a read polled while the stream is down completes with the origin it names', () => {
    const bank = {
      bankName: 'GTBank',
      accountName: null,
      accountNumber: '****6785',
      institutionCode: '000013',
    };
    const completedRead = read({
      status: 'completed',
      method: 'bank_transfer',
      payerBank: bank,
      shouldPromptBankAccountLinking: true,
    });
    expect(eventOfRead(read({ status: 'pending' }))).toBeNull();
    const event = eventOfRead(completedRead);
    if (!event) throw new Error('a completed read is an event');
    expect(event).toMatchObject({
      status: 'completed',
      payerBank: bank,
      paymentType: 'bank_transfer',
    });
    const state = run([{ type: 'event', event }]);
    expect(state.origin).toMatchObject({ payerBank: bank, shouldPromptBankAccountLinking: true });
    // A completion that names nothing keeps what the page knew.
    const again = run(
      [{ type: 'event', event: { paymentId: 'pay_1', status: 'completed' } }],
      state,
    );
    expect(again.origin).toMatchObject({ payerBank: bank, shouldPromptBankAccountLinking: true });
  });

  it('a completed read is processed', () => {
    expect(resumed({ status: 'completed', method: 'card' }).status.phase).toBe('processed');
  });
});

describe('payNowReducer: prompts and terminal', () => {
  it('a prompt steps and settles', () => {
    const state = run([{ type: 'prompt_step', step: 'link' }]);
    expect(state.prompt).toEqual({ settled: false, step: 'link' });
    expect(run([{ type: 'prompt_settled' }], state).prompt).toEqual({ settled: true, step: 'ask' });
  });

  it('with the terminal open the stream reports a chip attempt, and its failure', () => {
    const open = run([{ type: 'terminal_opened' }]);
    expect(open).toMatchObject({ terminalOpen: true, method: 'card' });
    const failed = run(
      [
        {
          type: 'event',
          event: { paymentId: 'pay_1', status: 'in_progress', paymentType: 'chip_card' },
        },
        {
          type: 'event',
          event: { paymentId: 'pay_1', status: 'failed', paymentType: 'chip_card' },
        },
      ],
      open,
    );
    expect(failed.report).toMatchObject({ method: 'chip_card', failed: true });
    expect(failed.view).toBe('methods');
  });

  it('numbers what the stream says while the terminal is open, for its modal, afresh each time', () => {
    const open = run([{ type: 'terminal_opened' }]);
    const declined = run(
      [
        {
          type: 'event',
          event: {
            paymentId: 'pay_1',
            status: 'failed',
            message: 'Transaction declined by card or issuer',
            attempt: attempt({ state: 'failed', failureCode: 'TERMINAL_DECLINED' }),
          },
        },
      ],
      open,
    );
    expect(declined.terminalNews).toEqual({
      seq: 1,
      news: {
        status: 'failed',
        code: 'TERMINAL_DECLINED',
        message: 'Transaction declined by card or issuer',
      },
    });
    const paid = run(
      [{ type: 'event', event: { paymentId: 'pay_1', status: 'completed' } }],
      declined,
    );
    expect(paid.terminalNews).toEqual({ seq: 2, news: { status: 'completed' } });
    expect(run([{ type: 'terminal_opened' }], declined).terminalNews).toBeNull();
    expect(
      run([{ type: 'event', event: { paymentId: 'pay_1', status: 'completed' } }]).terminalNews,
    ).toBeNull();
  });
});

describe('attemptOutcomeText', () => {
  it('keeps a message whose charge is not known as it is', () => {
    expect(attemptOutcomeText(attempt({ state: 'failed', message: 'Declined.' }), DUE)).toBe(
      'Declined.',
    );
    expect(
      attemptOutcomeText(attempt({ state: 'failed', message: 'Declined.', charged: false }), DUE),
    ).toBe('Declined. Nothing was charged to your card.');
  });
});

describe('back from a 3-D Secure check opened in the same window', () => {
  const declined = read({
    status: 'pending',
    method: 'card',
    message: '3DS authentication failed',
    attempt: attempt({
      method: 'card',
      state: 'failed',
      failureCode: 'THREE_DS_FAILED',
      message: '3DS authentication failed',
    }),
  });

  it("says the check's refusal, with a way on", () => {
    const state = run([
      { type: 'read', read: declined, answersCharge: true, backFromChallenge: true },
    ]);
    expect(state.view).toBe('processing');
    expect(state.status.phase).toBe('failed');
    expect(state.status.error).toBe('3DS authentication failed');
  });

  it('opened any other way, shows the methods, as before', () => {
    const state = run([{ type: 'read', read: declined, answersCharge: true }]);
    expect(state.view).toBe('methods');
  });
});
