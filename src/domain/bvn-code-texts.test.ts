import { describe, expect, it } from 'vitest';
import { bvnCodeResentMessage, bvnCodeSentMessage, bvnMethodsIntro } from './bvn-code-texts';

describe('BVN code texts', () => {
  it('says NIBSS sends the code with Mono, and the sandbox registry in the sandbox', () => {
    expect(bvnMethodsIntro('nibss')).toMatch(/^NIBSS sends your code, not us\./);
    expect(bvnMethodsIntro('sandbox')).toMatch(/^The sandbox BVN registry sends your code/);
    // The hints are masked: nobody, the payer included, reads a whole number or address there.
    expect(bvnMethodsIntro('nibss')).toMatch(/only part of each number or address is shown\.$/);
  });

  it('says the code went the way chosen in the registry’s own masked words', () => {
    expect(
      bvnCodeSentMessage('nibss', 'Sms with a verification code will be sent to phone 0818***6496'),
    ).toBe(
      'NIBSS sent a 6-digit code the way you chose: Sms with a verification code will be sent to phone 0818***6496',
    );
    expect(bvnCodeResentMessage('nibss')).toBe('NIBSS sent a new code. Use the newest one.');
  });
});
