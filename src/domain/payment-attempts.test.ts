import { describe, expect, it } from 'vitest';
import {
  ATTEMPT_STATES,
  ATTEMPT_TRANSITIONS,
  CALLED_OFF_REASON,
  isCalledOffPush,
  mayMove,
  namedStateOf,
  pageStateOf,
  type TAttemptEdge,
  type TAttemptState,
} from './payment-attempts';

const ALL_STATES = Object.keys(ATTEMPT_STATES) as TAttemptState[];

/** Every edge with the states it leaves from, written out: the table must say exactly this. */
const EXPECTED: Record<TAttemptEdge, { from: TAttemptState[]; to: TAttemptState }> = {
  claimTransfer: { from: ['transfer_open'], to: 'transfer_claimed' },
  askPin: { from: ['charging'], to: 'awaiting_pin' },
  askOtp: { from: ['charging'], to: 'awaiting_otp' },
  ask3ds: { from: ['charging'], to: 'awaiting_3ds' },
  takeAnswer: { from: ['awaiting_pin', 'awaiting_otp', 'awaiting_3ds'], to: 'charging' },
  complete: { from: ['charging', 'transfer_open', 'transfer_claimed'], to: 'completed' },
  fail: { from: ['charging'], to: 'failed' },
  abandon: {
    from: ['transfer_open', 'transfer_claimed', 'awaiting_pin', 'awaiting_otp', 'awaiting_3ds'],
    to: 'failed',
  },
  paidOtherwise: { from: ['charging', 'transfer_open', 'transfer_claimed'], to: 'failed' },
  closedByPayment: {
    from: ['transfer_open', 'transfer_claimed', 'awaiting_pin', 'awaiting_otp', 'awaiting_3ds'],
    to: 'failed',
  },
  paidAfterCallOff: { from: ['failed'], to: 'completed' },
};

describe('the payment attempt transition table', () => {
  it('has exactly the edges written out here', () => {
    expect(Object.keys(ATTEMPT_TRANSITIONS).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [edge, { from, to }] of Object.entries(EXPECTED) as [
    TAttemptEdge,
    (typeof EXPECTED)[TAttemptEdge],
  ][]) {
    describe(`${edge} → ${to}`, () => {
      it('reaches its state', () => {
        expect(ATTEMPT_TRANSITIONS[edge].to).toBe(to);
      });
      for (const state of ALL_STATES) {
        const allowed = from.includes(state);
        it(`${allowed ? 'moves' : 'refuses'} an attempt ${state}`, () => {
          expect(mayMove(state, edge)).toBe(allowed);
        });
      }
    });
  }

  it('never moves a completed attempt, a failed one only when paid after its call-off', () => {
    for (const edge of Object.keys(EXPECTED) as TAttemptEdge[]) {
      expect(mayMove('completed', edge)).toBe(false);
      expect(mayMove('failed', edge)).toBe(edge === 'paidAfterCallOff');
      expect(mayMove(null, edge)).toBe(false);
    }
  });

  it('knows a called-off push by its method and reason, nothing else failed', () => {
    const calledOff = { method: 'chip_card', status: 'failed', failureReason: CALLED_OFF_REASON };
    expect(isCalledOffPush(calledOff)).toBe(true);
    expect(isCalledOffPush({ ...calledOff, method: 'card' })).toBe(false);
    expect(isCalledOffPush({ ...calledOff, failureReason: 'declined' })).toBe(false);
    expect(isCalledOffPush({ ...calledOff, status: 'completed' })).toBe(false);
  });
});

describe('the states as the database keeps them', () => {
  it('names each status and stage pair, and nothing else', () => {
    for (const state of ALL_STATES) expect(namedStateOf(ATTEMPT_STATES[state])).toBe(state);
    expect(namedStateOf({ status: 'failed', stage: 'charging' })).toBeNull();
    expect(namedStateOf({ status: 'pending', stage: 'charging' })).toBeNull();
  });

  it('shows the page both transfer states as awaiting_transfer', () => {
    expect(pageStateOf('transfer_open')).toBe('awaiting_transfer');
    expect(pageStateOf('transfer_claimed')).toBe('awaiting_transfer');
    expect(pageStateOf('awaiting_3ds')).toBe('awaiting_3ds');
    expect(pageStateOf('failed')).toBe('failed');
  });
});
