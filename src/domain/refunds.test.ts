import { describe, expect, it } from 'vitest';
import { mayMoveRefund, REFUND_STATES, REFUND_TRANSITIONS } from './refunds';

describe('the refund lifecycle', () => {
  it('moves a pending refund to processed or failed', () => {
    expect(mayMoveRefund('pending', 'process')).toBe(true);
    expect(mayMoveRefund('pending', 'fail')).toBe(true);
  });

  it('never moves a refund that ended', () => {
    for (const edge of Object.keys(REFUND_TRANSITIONS) as (keyof typeof REFUND_TRANSITIONS)[]) {
      expect(mayMoveRefund('processed', edge)).toBe(false);
      expect(mayMoveRefund('failed', edge)).toBe(false);
    }
  });

  it('reaches every state but the first by some edge', () => {
    const reached = new Set(Object.values(REFUND_TRANSITIONS).map((edge) => edge.to));
    expect([...reached].sort()).toEqual(REFUND_STATES.filter((s) => s !== 'pending').sort());
  });
});
