import { describe, expect, it } from 'vitest';
import { shouldPromptOriginLinking } from './origin-linking';

const sender = { accountNumber: '0690000018', institutionCode: '044' };

describe('shouldPromptOriginLinking', () => {
  it('does not prompt when the bank did not name the sender', () => {
    expect(shouldPromptOriginLinking(null, null)).toBe(false);
    expect(shouldPromptOriginLinking(null, [])).toBe(false);
    expect(shouldPromptOriginLinking(null, [sender])).toBe(false);
  });

  it('prompts an anonymous payer whose sender is known', () => {
    expect(shouldPromptOriginLinking(sender, null)).toBe(true);
  });

  it('prompts a signed-in payer with no active link on the sender', () => {
    expect(shouldPromptOriginLinking(sender, [])).toBe(true);
    expect(
      shouldPromptOriginLinking(sender, [{ accountNumber: '0123456785', institutionCode: '058' }]),
    ).toBe(true);
  });

  it('does not prompt a payer whose active link is on the same number at the same bank', () => {
    expect(
      shouldPromptOriginLinking(sender, [
        { accountNumber: '0123456785', institutionCode: '058' },
        { accountNumber: '0690000018', institutionCode: '044' },
      ]),
    ).toBe(false);
  });

  it('matches a link by number and bank together, not either alone', () => {
    expect(
      shouldPromptOriginLinking(sender, [
        { accountNumber: '0690000018', institutionCode: '058' },
        { accountNumber: '0123456785', institutionCode: '044' },
      ]),
    ).toBe(true);
  });
});
