import { describe, expect, it } from 'vitest';
import { auditTarget, auditTargetPath, auditWords } from './audit-words';

describe('the audit log in words', () => {
  it('says an act in words, and one it does not know by its code', () => {
    expect(auditWords('payment.refunded')).toBe('Refunded a payment');
    expect(auditWords('sandbox.challenge_answered')).toBe(
      "Answered a sandbox card's 3-D Secure check",
    );
    expect(auditWords('something.new')).toBe('something.new');
  });

  it('links a payment and a consent to their pages, and names a passkey by nothing', () => {
    expect(auditTargetPath('pay_abc-1')).toBe('/payments/pay_abc-1');
    expect(auditTargetPath('cns_abc')).toBe('/consents/cns_abc');
    expect(auditTargetPath('whk_abc')).toBeNull();
    expect(auditTarget('staff.passkey_added_by_code', 'MzQmrq')).toBeNull();
    expect(auditTarget('team.removed', 'stf_1')).toBe('stf_1');
  });
});
