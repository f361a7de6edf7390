import { describe, expect, it } from 'vitest';
import { consentStepViews, consentSteps, stepDotLogos, type TConsentStep } from './consent-steps';
import type { TConsent } from './schemas/consent';
import { aConsent, aPayment, anImmediatePayment } from './test-support/fixtures';

describe('consentSteps', () => {
  it.each<[string, Partial<TConsent>, TConsentStep[]]>([
    ['nothing asked', {}, []],
    ['data sharing', { dataSharing: { bvnData: true } }, ['data_sharing']],
    ['data sharing with nothing requested', { dataSharing: { bvnData: false, ninData: [] } }, []],
    ['a form', { formId: 'frm_1' }, ['form']],
    ['future payments', { payments: [aPayment()] }, ['future_payments']],
    ['an immediate payment', { payments: [anImmediatePayment()] }, ['immediate_payment']],
    [
      'everything, listed in any order',
      {
        payments: [anImmediatePayment(), aPayment()],
        formId: 'frm_1',
        dataSharing: { ninData: ['name'] },
      },
      ['data_sharing', 'form', 'future_payments', 'immediate_payment'],
    ],
  ])('%s → %j', (_, overrides, steps) => {
    expect(consentSteps(aConsent(overrides))).toEqual(steps);
  });
});

describe('consentStepViews', () => {
  const steps: TConsentStep[] = ['data_sharing', 'form', 'future_payments'];

  it('opens earlier steps and the current one, disables later ones, and marks completed ones', () => {
    expect(consentStepViews(steps, 'form', new Set(['data_sharing']))).toEqual([
      { step: 'data_sharing', number: 1, enabled: true, done: true, statusLabel: 'Completed' },
      { step: 'form', number: 2, enabled: true, done: false, statusLabel: 'Pending' },
      { step: 'future_payments', number: 3, enabled: false, done: false, statusLabel: 'Pending' },
    ]);
  });

  it('enables no step when the current step is not one of them', () => {
    expect(consentStepViews(steps, 'immediate_payment', new Set()).some((v) => v.enabled)).toBe(
      false,
    );
  });
});

describe('stepDotLogos', () => {
  it.each([
    [[], [], null],
    [['a', 'b', 'c'], ['a', 'b', 'c'], null],
    [['a', 'b', 'c', 'd', 'e'], ['a', 'b', 'c'], '+2'],
  ])('shows at most 3 logos then +N: %j', (logos, shown, more) => {
    expect(stepDotLogos(logos)).toEqual({ shown, more });
  });
});
