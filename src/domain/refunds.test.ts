import { describe, expect, it } from 'vitest';
import { REFUND_STATES, REFUND_TRANSITIONS } from './refunds';

describe('the refund lifecycle', () => {
  it('moves a pending refund to processed or failed', () => {
    expect(REFUND_TRANSITIONS).toEqual({
      process: { from: ['pending'], to: 'processed' },
      fail: { from: ['pending'], to: 'failed' },
    });
  });

  it('never moves a refund that ended', () => {
    const leftFrom = Object.values(REFUND_TRANSITIONS).flatMap((edge): string[] => [...edge.from]);
    expect(leftFrom).not.toContain('processed');
    expect(leftFrom).not.toContain('failed');
  });

  it('reaches every state but the first by some edge', () => {
    const reached = new Set(Object.values(REFUND_TRANSITIONS).map((edge) => edge.to));
    expect([...reached].sort()).toEqual(REFUND_STATES.filter((s) => s !== 'pending').sort());
  });
});
