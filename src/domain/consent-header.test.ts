import { describe, expect, it } from 'vitest';
import {
  consentHeaderTitle,
  grantedMessage,
  isConsentHeaderVisible,
  isMerchantBylineVisible,
  standalonePageTitle,
} from './consent-header';
import type { TConsent } from './schemas/consent';
import { aConsent, aPayment, anImmediatePayment } from './test-support/fixtures';

describe('isConsentHeaderVisible', () => {
  it.each<[string, Partial<TConsent>, boolean, boolean]>([
    ['standalone with future payments', { payments: [aPayment()] }, false, true],
    ['embedded with future payments', { payments: [aPayment()] }, true, false],
    [
      'standalone with only an immediate payment',
      { payments: [anImmediatePayment()] },
      false,
      false,
    ],
    [
      'an immediate payment and data sharing',
      { payments: [anImmediatePayment()], dataSharing: { bvnData: true } },
      false,
      true,
    ],
    [
      'an immediate payment and a form',
      { payments: [anImmediatePayment()], formId: 'frm_1' },
      false,
      true,
    ],
    [
      'an immediate and a future payment',
      { payments: [anImmediatePayment(), aPayment()] },
      false,
      true,
    ],
    ['nothing asked', {}, false, true],
  ])('%s (embed %s) → %s', (_, overrides, embed, visible) => {
    expect(isConsentHeaderVisible(aConsent(overrides), { embed })).toBe(visible);
  });
});

describe('isMerchantBylineVisible: who asks, where the header is hidden', () => {
  it.each<[string, Partial<TConsent>, boolean, boolean]>([
    ['embedded with future payments', { payments: [aPayment()] }, true, true],
    ['embedded, data sharing only', { dataSharing: { bvnData: true } }, true, true],
    ['embedded, an immediate payment only', { payments: [anImmediatePayment()] }, true, false],
    [
      'standalone with future payments: the header says it',
      { payments: [aPayment()] },
      false,
      false,
    ],
  ])('%s (embed %s) → %s', (_, overrides, embed, visible) => {
    expect(isMerchantBylineVisible(aConsent(overrides), { embed })).toBe(visible);
  });
});

describe('header and page texts', () => {
  it.each([
    [false, 'Consent Request'],
    [true, 'Link Account'],
  ])('header title while linking %s → %j', (linking, title) => {
    expect(consentHeaderTitle(linking)).toBe(title);
  });

  it('titles the standalone page after the merchant', () => {
    expect(standalonePageTitle('FitLife Gym')).toBe('FitLife Gym - Consent Request');
  });

  it.each([
    ['FitLife Gym', 'You have successfully granted consent to FitLife Gym'],
    [null, 'You have successfully granted consent to Merchant'],
    [undefined, 'You have successfully granted consent to Merchant'],
    ['  ', 'You have successfully granted consent to Merchant'],
  ])('granted message for %j', (name, text) => {
    expect(grantedMessage(name)).toBe(text);
  });
});
