import { describe, expect, it } from 'vitest';
import { passkeySkipCost } from './passkey-offer';

describe('passkeySkipCost', () => {
  it("tells a new payer what 'Not now' costs: the wait a later passkey has, and none now", () => {
    expect(passkeySkipCost({ newAccount: true, passkeyCount: 0 })).toBe(
      'Skip it, and a passkey you create after linking an account or granting a consent can approve payments and mandates only 24 hours after you create it. Created now, it can approve them at once.',
    );
  });

  it('tells a payer with no passkey the wait, without promising that one made now approves', () => {
    // Something may be linked already: a passkey made now may wait too.
    expect(passkeySkipCost({ newAccount: false, passkeyCount: 0 })).toBe(
      'Skip it, and a passkey you create after linking an account or granting a consent can approve payments and mandates only 24 hours after you create it.',
    );
  });

  it('says nothing where another passkey of theirs can approve a later one', () => {
    expect(passkeySkipCost({ newAccount: false, passkeyCount: 2 })).toBeNull();
  });
});
