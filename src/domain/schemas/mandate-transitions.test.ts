import { describe, expect, it } from 'vitest';
import { statesLeft, statesReached } from '../test-support/lifecycle-reach';
import { MANDATE_STATES } from './account-link';
import {
  isOpen,
  MANDATE_TRANSITIONS,
  OPEN_STATES,
  type TMandateState,
} from './mandate-transitions';

/** The states a link is created in: `awaiting_authorisation` for a paper mandate. */
const START_STATES: readonly TMandateState[] = ['created', 'awaiting_authorisation'];
const ENDED_STATES: readonly TMandateState[] = ['active', 'expired', 'cancelled'];
/** The states no move leaves: an active link is stopped only where its provider keeps it. */
const FINAL_STATES: readonly TMandateState[] = ['expired', 'cancelled'];

describe('the mandate lifecycle', () => {
  it('reaches every state from the states a link is created in', () => {
    expect(statesReached(START_STATES, MANDATE_TRANSITIONS)).toEqual([...MANDATE_STATES].sort());
  });

  it('never moves a mandate that expired or was cancelled, and an active one only to stop it', () => {
    const leftFrom = statesLeft(MANDATE_TRANSITIONS);
    for (const state of FINAL_STATES) expect(leftFrom.has(state)).toBe(false);
    const fromActive = Object.values(MANDATE_TRANSITIONS).filter((edge) =>
      (edge.from as readonly TMandateState[]).includes('active'),
    );
    expect(fromActive).toEqual([MANDATE_TRANSITIONS.stop]);
    expect(MANDATE_TRANSITIONS.stop).toEqual({ from: ['active'], to: 'cancelled' });
  });

  it('ends every move that leaves an open state but the claimed transfer', () => {
    expect(MANDATE_TRANSITIONS.transferClaimed).toEqual({
      from: ['created'],
      to: 'awaiting_authorisation',
    });
    for (const edge of ['activate', 'expire', 'cancel'] as const) {
      expect(MANDATE_TRANSITIONS[edge].from).toEqual(OPEN_STATES);
      expect(ENDED_STATES).toContain(MANDATE_TRANSITIONS[edge].to);
    }
  });

  it('calls open exactly the states not ended', () => {
    expect(MANDATE_STATES.filter(isOpen)).toEqual([...OPEN_STATES]);
    expect(MANDATE_STATES.filter((state) => !isOpen(state))).toEqual([...ENDED_STATES]);
  });
});
