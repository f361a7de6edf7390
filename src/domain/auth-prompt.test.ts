import { describe, expect, it } from 'vitest';
import { authPromptItems, authPromptPaid, shouldShowAuthPrompt } from './auth-prompt';
import type { TConsent } from './schemas/consent';
import { aConsent, aPayment, anImmediatePayment } from './test-support/fixtures';

describe('authPromptItems', () => {
  it.each<[string, Partial<TConsent>, string[]]>([
    ['nothing', {}, []],
    [
      'an immediate payment',
      { payments: [anImmediatePayment()] },
      ['Collect ₦2,500.00 immediately'],
    ],
    ['one future payment', { payments: [aPayment()] }, ['Schedule 1 future payment']],
    [
      'three future payments',
      { payments: [aPayment(), aPayment(), aPayment()] },
      ['Schedule 3 future payments'],
    ],
    [
      'everything, in the spec order',
      {
        payments: [aPayment(), anImmediatePayment(), aPayment()],
        dataSharing: { bankAccounts: true, userImages: ['selfie'], ninData: true, bvnData: true },
      },
      [
        'Collect ₦2,500.00 immediately',
        'Schedule 2 future payments',
        'Access your BVN data',
        'Access your NIN data',
        'Access your user images',
        'Access your bank account information',
      ],
    ],
    [
      'an immediate payment already executed',
      { payments: [anImmediatePayment({ status: 'executed' })] },
      [],
    ],
  ])('%s → %j', (_, overrides, items) => {
    expect(authPromptItems(aConsent(overrides))).toEqual(items);
  });
});

describe('the auth prompt after a payment', () => {
  const unpaid = aConsent({ payments: [anImmediatePayment(), aPayment()] });

  it('no longer asks to collect the payment just made, and says it is paid', () => {
    expect(authPromptItems(unpaid, true)).toEqual(['Schedule 1 future payment']);
    expect(authPromptPaid(unpaid, true)).toBe('₦2,500.00 paid');
  });

  it('says an executed payment is paid from the consent read alone', () => {
    const paid = aConsent({ payments: [anImmediatePayment({ status: 'executed' })] });
    expect(authPromptPaid(paid)).toBe('₦2,500.00 paid');
  });

  it('says nothing is paid before the payment', () => {
    expect(authPromptPaid(unpaid)).toBeNull();
    expect(authPromptPaid(aConsent({ payments: [aPayment()] }), true)).toBeNull();
  });
});

describe('shouldShowAuthPrompt', () => {
  const requiresAuth = aConsent({ requirements: { requiresAuth: true, requiresAccount: false } });
  const withForm = aConsent({ formId: 'frm_1' });
  const open = aConsent({ payments: [anImmediatePayment()] });
  it.each([
    ['auth required, anonymous', requiresAuth, false, false, true],
    ['a form, anonymous', withForm, false, false, true],
    ['auth required, signed in', requiresAuth, true, false, false],
    ['auth required, public viewer', requiresAuth, false, true, false],
    ['neither auth nor form', open, false, false, false],
  ])('%s → %s', (_, consent, signedIn, isPublic, shown) => {
    expect(shouldShowAuthPrompt({ consent, signedIn, isPublic })).toBe(shown);
  });
});
