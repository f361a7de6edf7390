import { describe, expect, it } from 'vitest';
import {
  consentStepViews,
  consentSteps,
  immediatePaymentLinked,
  stepDotLogos,
  type TConsentStep,
} from './consent-steps';
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
      {
        step: 'data_sharing',
        number: 1,
        enabled: true,
        done: true,
        statusLabel: 'Completed',
        linked: false,
      },
      {
        step: 'form',
        number: 2,
        enabled: true,
        done: false,
        statusLabel: 'Pending',
        linked: false,
      },
      {
        step: 'future_payments',
        number: 3,
        enabled: false,
        done: false,
        statusLabel: 'Pending',
        linked: false,
      },
    ]);
  });

  it("badges only the Immediate Payment step 'linked' when its source account is linked", () => {
    const all: TConsentStep[] = ['future_payments', 'immediate_payment'];
    const views = consentStepViews(all, 'immediate_payment', new Set(['future_payments']), true);
    expect(views.map((v) => [v.step, v.linked])).toEqual([
      ['future_payments', false],
      ['immediate_payment', true],
    ]);
    expect(consentStepViews(all, 'immediate_payment', new Set()).every((v) => !v.linked)).toBe(
      true,
    );
  });

  it('enables no step when the current step is not one of them', () => {
    expect(consentStepViews(steps, 'immediate_payment', new Set()).some((v) => v.enabled)).toBe(
      false,
    );
  });
});

describe('immediatePaymentLinked', () => {
  it.each([
    [false, false, false],
    [true, false, true],
    [false, true, true],
  ])(
    'a saved account chosen: %s, paid from a linked account: %s → linked %s',
    (savedAccountChosen, paidFromLinkedAccount, linked) => {
      expect(immediatePaymentLinked({ savedAccountChosen, paidFromLinkedAccount })).toBe(linked);
    },
  );
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
