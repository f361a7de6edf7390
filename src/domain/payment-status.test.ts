import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attemptOutcomeText } from './pay-now-moves';
import { refusedCardMessage } from './card-refusal';
import {
  failedPaymentMainAction,
  PAYMENT_STATUS_INITIAL,
  PAYMENT_STATUS_TIMINGS,
  paymentProgressSteps,
  ringFigure,
  paymentStatusReducer,
  type TPaymentPhase,
  type TPaymentStatusAction,
  type TPaymentStatusState,
} from './payment-status';

const run = (actions: TPaymentStatusAction[], from = PAYMENT_STATUS_INITIAL) =>
  actions.reduce(paymentStatusReducer, from);

const ROUTES: Record<TPaymentPhase, TPaymentStatusAction[]> = {
  pending: [],
  awaiting_transfer: [{ type: 'transfer_confirmation_requested' }],
  charging: [{ type: 'charging' }],
  awaiting_3ds: [{ type: 'three_ds_started' }],
  retrying: [{ type: 'failed' }, { type: 'retry' }],
  received: [{ type: 'in_progress' }],
  processed: [{ type: 'completed' }],
  completed: [{ type: 'completed' }, { type: 'completion_delay_elapsed' }],
  failed: [{ type: 'failed', message: 'Card declined' }],
};
const stateIn = (phase: TPaymentPhase): TPaymentStatusState => run(ROUTES[phase]);

const ACTIONS: TPaymentStatusAction[] = [
  { type: 'transfer_confirmation_requested' },
  { type: 'three_ds_started' },
  { type: 'charging' },
  { type: 'in_progress' },
  { type: 'completed' },
  { type: 'completion_delay_elapsed' },
  { type: 'failed', message: 'Insufficient funds' },
  { type: 'retry' },
  { type: 'cancel' },
  { type: 'pulse' },
];
const PHASES = Object.keys(ROUTES) as TPaymentPhase[];

// Every phase × action: the phase it leads to; a phase not listed refuses the action and keeps
// the very same state object.
const EDGES: Record<TPaymentStatusAction['type'], Partial<Record<TPaymentPhase, TPaymentPhase>>> = {
  transfer_confirmation_requested: { pending: 'awaiting_transfer', retrying: 'awaiting_transfer' },
  three_ds_started: { pending: 'awaiting_3ds', retrying: 'awaiting_3ds', charging: 'awaiting_3ds' },
  charging: { pending: 'charging', retrying: 'charging' },
  in_progress: {
    pending: 'received',
    awaiting_transfer: 'received',
    charging: 'received',
    awaiting_3ds: 'received',
    retrying: 'received',
  },
  completed: {
    pending: 'processed',
    awaiting_transfer: 'processed',
    charging: 'processed',
    awaiting_3ds: 'processed',
    retrying: 'processed',
    received: 'processed',
  },
  completion_delay_elapsed: { processed: 'completed' },
  failed: {
    pending: 'failed',
    awaiting_transfer: 'failed',
    charging: 'failed',
    awaiting_3ds: 'failed',
    retrying: 'failed',
    received: 'failed',
  },
  retry: { failed: 'retrying' },
  cancel: {
    awaiting_transfer: 'pending',
    awaiting_3ds: 'pending',
    retrying: 'pending',
    received: 'pending',
    failed: 'pending',
  },
  pulse: {
    charging: 'charging',
    awaiting_3ds: 'awaiting_3ds',
    retrying: 'retrying',
    received: 'received',
    processed: 'processed',
  },
};

const cases = ACTIONS.flatMap((action) =>
  PHASES.map((phase) => [phase, action.type, action, EDGES[action.type][phase] ?? 'same'] as const),
);

describe('paymentStatusReducer transitions', () => {
  it.each(cases)('%s + %s → %s', (phase, _, action, expected) => {
    const before = stateIn(phase);
    const after = paymentStatusReducer(before, action);
    if (expected === 'same') expect(after).toBe(before);
    else expect(after.phase).toBe(expected);
  });
});

describe('paymentStatusReducer values', () => {
  it.each<[string, TPaymentStatusAction[], Partial<TPaymentStatusState>]>([
    ['starts pending at 0', [], { status: 'pending', progress: 0, stepText: '', error: null }],
    [
      'in_progress shows 33% Payment Received',
      [{ type: 'in_progress' }],
      { status: 'in_progress', progress: 33, stepText: 'Payment Received' },
    ],
    [
      'the completed event shows 66% Payment Processed',
      [{ type: 'in_progress' }, { type: 'completed' }],
      { status: 'in_progress', progress: 66, stepText: 'Payment Processed' },
    ],
    [
      'completes at 100% after the delay',
      [{ type: 'completed' }, { type: 'completion_delay_elapsed' }],
      { status: 'completed', progress: 100 },
    ],
    [
      'waits for 3DS at 25%',
      [{ type: 'three_ds_started' }],
      { status: 'in_progress', progress: 25, stepText: 'Awaiting 3D Secure authentication...' },
    ],
    [
      'a transfer the payer says they made is in progress at 33% (spec §2, §4)',
      [{ type: 'transfer_confirmation_requested' }],
      { status: 'in_progress', progress: 33, stepText: 'Waiting for transfer confirmation...' },
    ],
    [
      'a card charge the bank has not answered says so, from 0',
      [{ type: 'charging' }],
      { status: 'in_progress', progress: 0, stepText: 'Your bank is still answering...' },
    ],
    [
      'a pulse while the bank answers never claims Payment Received',
      [{ type: 'charging' }, ...Array<TPaymentStatusAction>(20).fill({ type: 'pulse' })],
      { progress: 32 },
    ],
    [
      'a charge the bank has not answered cannot be cancelled: money may be moving',
      [{ type: 'charging' }, { type: 'cancel' }],
      { phase: 'charging' },
    ],
    [
      'fails with the message given',
      [{ type: 'in_progress' }, { type: 'failed', message: 'Card declined' }],
      { status: 'failed', progress: 100, stepText: 'Card declined', error: 'Card declined' },
    ],
    [
      'fails with Payment failed when no message is given',
      [{ type: 'failed', message: ' ' }],
      { status: 'failed', error: 'Payment failed' },
    ],
    [
      'retries from 0 with Retrying payment...',
      [{ type: 'in_progress' }, { type: 'failed' }, { type: 'retry' }],
      { status: 'in_progress', progress: 0, stepText: 'Retrying payment...', error: null },
    ],
    [
      'cancel returns to pending at 0',
      [{ type: 'in_progress' }, { type: 'cancel' }],
      { status: 'pending', progress: 0, stepText: '' },
    ],
    ['pulses by 3', [{ type: 'three_ds_started' }, { type: 'pulse' }], { progress: 28 }],
    [
      'a pulse never claims Payment Received before the server does',
      [{ type: 'three_ds_started' }, ...Array<TPaymentStatusAction>(10).fill({ type: 'pulse' })],
      { progress: 32 },
    ],
    [
      'a pulse never claims Payment Processed before the server does',
      [{ type: 'in_progress' }, ...Array<TPaymentStatusAction>(20).fill({ type: 'pulse' })],
      { progress: 65 },
    ],
    [
      'pulses while processed stay below 100 until completion',
      [{ type: 'completed' }, ...Array<TPaymentStatusAction>(20).fill({ type: 'pulse' })],
      { progress: 99 },
    ],
    [
      'progress never goes back when a late in_progress follows pulses',
      [
        { type: 'three_ds_started' },
        { type: 'pulse' },
        { type: 'pulse' },
        { type: 'pulse' },
        { type: 'in_progress' },
      ],
      { progress: 33 },
    ],
  ])('%s', (_, actions, expected) => {
    expect(run(actions)).toMatchObject(expected);
  });

  it('exposes its timings as data', () => {
    expect(PAYMENT_STATUS_TIMINGS).toEqual({ completionDelayMs: 3_000, pulseIntervalMs: 1_000 });
  });
});

const anyAction: fc.Arbitrary<TPaymentStatusAction> = fc.oneof(
  ...ACTIONS.filter((a) => a.type !== 'failed').map((a) => fc.constant(a)),
  fc
    .option(fc.string(), { nil: undefined })
    .map((message) => ({ type: 'failed' as const, message })),
);

describe('paymentStatusReducer properties', () => {
  it('keeps progress an integer within 0–100 and status in step with phase', () => {
    fc.assert(
      fc.property(fc.array(anyAction, { maxLength: 60 }), (actions) => {
        let state = PAYMENT_STATUS_INITIAL;
        for (const action of actions) {
          state = paymentStatusReducer(state, action);
          expect(Number.isInteger(state.progress)).toBe(true);
          expect(state.progress).toBeGreaterThanOrEqual(0);
          expect(state.progress).toBeLessThanOrEqual(100);
          expect(state.status === 'failed').toBe(state.error !== null);
        }
      }),
    );
  });

  it('never leaves completed, and leaves failed only by retry or cancel', () => {
    fc.assert(
      fc.property(fc.array(anyAction, { maxLength: 60 }), (actions) => {
        let state = PAYMENT_STATUS_INITIAL;
        for (const action of actions) {
          const next = paymentStatusReducer(state, action);
          if (state.phase === 'completed') expect(next).toBe(state);
          if (state.phase === 'failed' && next.phase !== 'failed') {
            expect(['retry', 'cancel']).toContain(action.type);
          }
          state = next;
        }
      }),
    );
  });

  it('reaches completed only through processed', () => {
    fc.assert(
      fc.property(fc.array(anyAction, { maxLength: 60 }), (actions) => {
        let state = PAYMENT_STATUS_INITIAL;
        for (const action of actions) {
          const next = paymentStatusReducer(state, action);
          if (next.phase === 'completed' && state.phase !== 'completed') {
            expect(state.phase).toBe('processed');
          }
          state = next;
        }
      }),
    );
  });
});

describe('paymentProgressSteps', () => {
  it.each([
    [0, false, false],
    [32, false, false],
    [33, true, false],
    [65, true, false],
    [66, true, true],
    [100, true, true],
  ])('at %i: Payment Received %s, Payment Processed %s', (progress, received, processed) => {
    const steps = paymentProgressSteps({ progress, phase: 'processed' });
    expect(steps.map((s) => s.done)).toEqual([received, processed]);
  });

  it('a failure after 33% (a transfer returned) leaves nothing ticked', () => {
    const steps = paymentProgressSteps({ progress: 33, phase: 'failed' });
    expect(steps.map((s) => s.done)).toEqual([false, false]);
  });

  it('the reducer failing a received payment leaves Payment Received unticked', () => {
    const received = paymentStatusReducer(
      paymentStatusReducer(PAYMENT_STATUS_INITIAL, { type: 'transfer_confirmation_requested' }),
      { type: 'in_progress' },
    );
    expect(paymentProgressSteps(received)[0]?.done).toBe(true);
    const failed = paymentStatusReducer(received, { type: 'failed', message: 'Returned' });
    expect(failed.phase).toBe('failed');
    expect(paymentProgressSteps(failed)[0]?.done).toBe(false);
  });
});

describe('ringFigure', () => {
  it('shows the progress while a payment moves, and none once it failed (an end, not a part)', () => {
    const received = paymentStatusReducer(
      paymentStatusReducer(PAYMENT_STATUS_INITIAL, { type: 'transfer_confirmation_requested' }),
      { type: 'in_progress' },
    );
    expect(ringFigure(received)).toBe(33);
    const failed = paymentStatusReducer(received, { type: 'failed', message: 'Returned' });
    // The ring is drawn whole in the failure colour, never a red 33 %.
    expect(failed.progress).toBe(100);
    expect(ringFigure(failed)).toBeNull();
    expect(ringFigure(paymentStatusReducer(failed, { type: 'retry' }))).toBe(0);
  });
});

describe('failedPaymentMainAction', () => {
  const failedWith = (message: string) =>
    paymentStatusReducer(PAYMENT_STATUS_INITIAL, { type: 'failed', message });

  it.each(['insufficient_funds', 'declined'] as const)(
    'refused for %s, the card meets the same answer again: another way to pay leads',
    (reason) => {
      const words = refusedCardMessage('CARD_PAYMENT_FAILED', reason);
      expect(failedPaymentMainAction(failedWith(words))).toBe('another_method');
    },
  );

  it('reads the refusal in the words an attempt ended with, what was charged said after it', () => {
    const text = attemptOutcomeText(
      {
        attemptId: 'att_1',
        method: 'card',
        state: 'failed',
        challengeUrl: null,
        expiresAt: null,
        failureCode: 'CARD_PAYMENT_FAILED',
        message: refusedCardMessage('CARD_PAYMENT_FAILED', 'insufficient_funds'),
        returned: null,
        charged: false,
      },
      250_000,
    );
    expect(text).toBe('Card payment failed: Insufficient funds. Nothing was charged to your card.');
    expect(failedPaymentMainAction(failedWith(text))).toBe('another_method');
  });

  it.each([
    refusedCardMessage('CARD_PAYMENT_FAILED', 'incorrect_pin'),
    refusedCardMessage('CARD_PAYMENT_FAILED', 'invalid_card'),
    'Your bank did not answer. Nothing was charged.',
    '3DS authentication failed',
    'Payment failed',
    'That account is closed: Retry Payment gives you a new one, or try another method.',
  ])('after %j, Retry Payment stays the main action', (message) => {
    expect(failedPaymentMainAction(failedWith(message))).toBe('retry');
  });

  it('names no refusal for a payment that has not failed', () => {
    const retrying = paymentStatusReducer(
      failedWith(refusedCardMessage('CARD_PAYMENT_FAILED', 'declined')),
      { type: 'retry' },
    );
    expect(failedPaymentMainAction(retrying)).toBe('retry');
  });
});
