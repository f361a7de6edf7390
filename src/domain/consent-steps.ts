import { STEP_DOT_MAX_LOGOS } from './constants';
import { requestedDataCategories } from './data-sharing';
import type { TConsent } from './schemas/consent';

/** The steps of the consent flow, in the spec's order (spec §2 Main consent flow). */
export const CONSENT_STEPS = [
  'data_sharing',
  'form',
  'future_payments',
  'immediate_payment',
] as const;
export type TConsentStep = (typeof CONSENT_STEPS)[number];

/** Each step's header (spec §2 Main consent flow). */
export const CONSENT_STEP_TITLES: Readonly<Record<TConsentStep, string>> = {
  data_sharing: 'Data Sharing',
  form: 'Form',
  future_payments: 'Future Payments',
  immediate_payment: 'Immediate Payment',
};

/**
 * The steps a consent needs, in the spec's order (spec §2 Main consent flow, §4 Consent flow):
 * data sharing when a category is asked for, a form when it has a formId, future payments and
 * immediate payment when it holds payments of that type.
 */
export function consentSteps(consent: TConsent): TConsentStep[] {
  const steps: TConsentStep[] = [];
  if (requestedDataCategories(consent.dataSharing).length > 0) steps.push('data_sharing');
  if (consent.formId !== null) steps.push('form');
  if (consent.payments.some((p) => p.type === 'future')) steps.push('future_payments');
  if (consent.payments.some((p) => p.type === 'immediate')) steps.push('immediate_payment');
  return steps;
}

export type TConsentStepView = {
  step: TConsentStep;
  /** 1-based number shown in the step header. */
  number: number;
  /** Earlier steps and the current one open; later ones are disabled (spec §2). */
  enabled: boolean;
  done: boolean;
  /** Header status (spec §2): 'Completed' with a green tick, or 'Pending'. */
  statusLabel: 'Completed' | 'Pending';
  /**
   * The 'linked' badge (spec §2 Immediate Payment: "Statuses are 'Pending', 'Completed' and a
   * 'linked' badge"): the Immediate Payment step's money comes from an account the payer has
   * linked (see immediatePaymentLinked). Always false on the other steps.
   */
  linked: boolean;
};

/**
 * The header state of each step given the current one and those completed (spec §2). A current
 * step that is not among the steps enables none, so a stale step never opens a later one.
 */
export function consentStepViews(
  steps: readonly TConsentStep[],
  current: TConsentStep,
  completed: ReadonlySet<TConsentStep>,
  immediateLinked = false,
): TConsentStepView[] {
  const currentIndex = steps.indexOf(current);
  return steps.map((step, index) => {
    const done = completed.has(step);
    return {
      step,
      number: index + 1,
      enabled: index <= currentIndex,
      done,
      statusLabel: done ? 'Completed' : 'Pending',
      linked: step === 'immediate_payment' && immediateLinked,
    };
  });
}

/**
 * Whether the immediate payment's source account is linked, for the step's 'linked' badge (spec
 * §2). A linked account is one the payer has linked to pay from: an account link whose mandate is
 * approved (spec §3 linkStatus 'approved' / 'bank_approved'; §5 "already-linked"). The source is
 * the saved account chosen to pay ('OneTap', a linked account by construction), or, once paid,
 * the account the payment came from when that account is linked and approved (spec §4 "If the
 * origin account is already linked and approved"). A card, a transfer from an account not linked,
 * or no choice yet: no badge.
 */
export function immediatePaymentLinked(input: {
  savedAccountChosen: boolean;
  paidFromLinkedAccount: boolean;
}): boolean {
  return input.savedAccountChosen || input.paidFromLinkedAccount;
}

/** Step dots (spec §2): at most 3 account logos, then '+N' for the rest (null when none). */
export function stepDotLogos<T>(
  logos: readonly T[],
  max = STEP_DOT_MAX_LOGOS,
): { shown: T[]; more: string | null } {
  const extra = logos.length - max;
  return { shown: logos.slice(0, max), more: extra > 0 ? `+${extra}` : null };
}
