import { describe, expect, it } from 'vitest';
import {
  ATTEMPT_STATES,
  ATTEMPT_TRANSITIONS,
  CARD_ASKING_WINDOW_MS,
  failsOverOn,
  GIVE_BACK_STARTS,
  GIVE_BACK_STATES,
  GIVE_BACK_TRANSITIONS,
  giveBackStateOf,
  isCalledOffPush,
  mayGiveBack,
  offersRetryElsewhere,
  OPEN_ATTEMPT_STATES,
  mayMove,
  namedStateOf,
  pageStateOf,
  type TAttemptEdge,
  type TAttemptState,
  type TGiveBackEdge,
  type TGiveBackState,
} from './payment-attempts';
import { statesLeft, statesReached } from './test-support/lifecycle-reach';

const ALL_STATES = Object.keys(ATTEMPT_STATES) as TAttemptState[];

/** Every edge with the states it leaves from, written out: the table must say exactly this. */
const EXPECTED: Record<TAttemptEdge, { from: TAttemptState[]; to: TAttemptState }> = {
  claimTransfer: { from: ['transfer_open'], to: 'transfer_claimed' },
  askPin: { from: ['charging', 'unanswered'], to: 'awaiting_pin' },
  askOtp: { from: ['charging', 'unanswered'], to: 'awaiting_otp' },
  ask3ds: { from: ['charging', 'unanswered'], to: 'awaiting_3ds' },
  takeAnswer: { from: ['awaiting_pin', 'awaiting_otp', 'awaiting_3ds'], to: 'charging' },
  complete: {
    from: [
      'charging',
      'unanswered',
      'retry_elsewhere',
      'tried_elsewhere',
      'transfer_open',
      'transfer_claimed',
    ],
    to: 'completed',
  },
  fail: { from: ['charging', 'unanswered'], to: 'failed' },
  loseAnswer: { from: ['charging'], to: 'unanswered' },
  offerElsewhere: { from: ['unanswered'], to: 'retry_elsewhere' },
  tryElsewhere: { from: ['retry_elsewhere'], to: 'tried_elsewhere' },
  abandon: {
    from: ['transfer_open', 'transfer_claimed', 'awaiting_pin', 'awaiting_otp', 'awaiting_3ds'],
    to: 'failed',
  },
  paidOtherwise: {
    from: [
      'charging',
      'unanswered',
      'retry_elsewhere',
      'tried_elsewhere',
      'transfer_open',
      'transfer_claimed',
    ],
    to: 'failed',
  },
  closedByPayment: {
    from: ['transfer_open', 'transfer_claimed', 'awaiting_pin', 'awaiting_otp', 'awaiting_3ds'],
    to: 'failed',
  },
  callOff: { from: ['charging', 'unanswered'], to: 'called_off' },
  paidAfterCallOff: { from: ['called_off'], to: 'completed' },
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

  it('never moves a completed or failed attempt, a called-off one only when paid after all', () => {
    for (const edge of Object.keys(EXPECTED) as TAttemptEdge[]) {
      expect(mayMove('completed', edge)).toBe(false);
      expect(mayMove('failed', edge)).toBe(false);
      expect(mayMove('called_off', edge)).toBe(edge === 'paidAfterCallOff');
      expect(mayMove(null, edge)).toBe(false);
    }
  });

  it('knows a called-off push by its state, nothing else failed', () => {
    expect(isCalledOffPush({ status: 'failed', stage: 'called_off' })).toBe(true);
    expect(isCalledOffPush({ status: 'failed', stage: null })).toBe(false);
    expect(isCalledOffPush({ status: 'failed', stage: 'tried_elsewhere' })).toBe(false);
    expect(isCalledOffPush({ status: 'completed', stage: null })).toBe(false);
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

  it('shows an unanswered charge as the bank answering, and one failed over as failed', () => {
    expect(pageStateOf('unanswered')).toBe('charging');
    expect(pageStateOf('retry_elsewhere')).toBe('failed');
    expect(pageStateOf('tried_elsewhere')).toBe('failed');
    expect(pageStateOf('called_off')).toBe('failed');
  });
});

describe('failing a card charge over to the next provider', () => {
  /** The states an edge list reaches from `state`, in order. */
  const walk = (state: TAttemptState, edges: TAttemptEdge[]): (TAttemptState | null)[] => {
    const seen: (TAttemptState | null)[] = [];
    let at: TAttemptState | null = state;
    for (const edge of edges) {
      at = mayMove(at, edge) ? ATTEMPT_TRANSITIONS[edge].to : null;
      seen.push(at);
    }
    return seen;
  };

  it('reaches tried elsewhere only through the requery gate', () => {
    expect(walk('charging', ['loseAnswer', 'offerElsewhere', 'tryElsewhere'])).toEqual([
      'unanswered',
      'retry_elsewhere',
      'tried_elsewhere',
    ]);
    // Straight from the charge, or from a plain failure, there is no way elsewhere.
    expect(walk('charging', ['offerElsewhere'])).toEqual([null]);
    expect(walk('charging', ['tryElsewhere'])).toEqual([null]);
    expect(walk('failed', ['tryElsewhere'])).toEqual([null]);
    // Each step once: a second try elsewhere of the same attempt finds it taken.
    expect(walk('tried_elsewhere', ['tryElsewhere'])).toEqual([null]);
  });

  it('offers Try Again only between the gate and the next try', () => {
    const offered = ALL_STATES.filter((state) => offersRetryElsewhere(state));
    expect(offered).toEqual(['retry_elsewhere']);
    expect(offersRetryElsewhere(null)).toBe(false);
  });

  it('books a late success of the first provider, wherever the failover stands', () => {
    for (const state of ['unanswered', 'retry_elsewhere', 'tried_elsewhere'] as const) {
      expect(mayMove(state, 'complete')).toBe(true);
      // Or, the payment paid by the next try, gives it back.
      expect(mayMove(state, 'paidOtherwise')).toBe(true);
    }
  });

  it('keeps an unanswered charge from being ended without its provider', () => {
    expect(mayMove('unanswered', 'abandon')).toBe(false);
    expect(mayMove('unanswered', 'closedByPayment')).toBe(false);
    expect(OPEN_ATTEMPT_STATES).toContain('unanswered');
  });

  it("fails over on the provider's side of taking nothing, never on the payer's refusal", () => {
    expect(failsOverOn('never arrived')).toBe(true);
    expect(failsOverOn('timeout')).toBe(true);
    expect(failsOverOn('expired')).toBe(true);
    for (const refusal of [
      'insufficient_funds',
      'incorrect_pin',
      'invalid_card',
      'declined',
      'incorrect_otp',
      'three_ds_declined',
    ]) {
      expect(failsOverOn(refusal)).toBe(false);
    }
  });

  it('gives the asking window a few minutes', () => {
    expect(CARD_ASKING_WINDOW_MS).toBeGreaterThanOrEqual(60_000);
    expect(CARD_ASKING_WINDOW_MS).toBeLessThanOrEqual(15 * 60_000);
  });
});

describe("the attempt's give-back", () => {
  const GIVE_BACKS = Object.keys(GIVE_BACK_STATES) as TGiveBackState[];
  const EDGES: Record<TGiveBackEdge, { from: TGiveBackState[]; to: TGiveBackState }> = {
    owe: { from: ['none'], to: 'owed' },
    giveBack: { from: ['owed'], to: 'settled' },
    givenBackByHand: { from: ['by_hand'], to: 'settled' },
  };

  it('has exactly the edges written out here, each from where it says', () => {
    expect(GIVE_BACK_TRANSITIONS).toEqual(EDGES);
    for (const [edge, { from }] of Object.entries(EDGES) as [TGiveBackEdge, { from: string[] }][]) {
      for (const state of GIVE_BACKS) expect(mayGiveBack(state, edge)).toBe(from.includes(state));
      expect(mayGiveBack(null, edge)).toBe(false);
    }
  });

  it('reaches every state from where an attempt starts', () => {
    expect(statesReached(GIVE_BACK_STARTS, GIVE_BACK_TRANSITIONS)).toEqual([...GIVE_BACKS].sort());
  });

  it('starts with nothing owed, and ends given back with no way out', () => {
    expect(GIVE_BACK_STARTS[0]).toBe('none');
    const left = statesLeft<TGiveBackState>(GIVE_BACK_TRANSITIONS);
    expect(GIVE_BACKS.filter((state) => !left.has(state))).toEqual(['settled']);
  });

  it('names each value of the refund column, and nothing else', () => {
    expect(giveBackStateOf(null)).toBe('none');
    expect(giveBackStateOf('owed')).toBe('owed');
    expect(giveBackStateOf('by_hand')).toBe('by_hand');
    expect(giveBackStateOf('settled')).toBe('settled');
    expect(giveBackStateOf('refunded')).toBeNull();
  });
});
