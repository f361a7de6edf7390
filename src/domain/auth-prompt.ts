import { requestedDataCategories } from './data-sharing';
import { formatNaira } from './money';
import { countNoun } from './plural';
import type { TDataCategory } from './schemas/consent-api';
import type { TConsent } from './schemas/consent';

export const DATA_ACCESS_ITEMS: Readonly<Record<TDataCategory, string>> = {
  bvnData: 'Access your BVN data',
  ninData: 'Access your NIN data',
  userImages: 'Access your user images',
  bankAccounts: 'Access your bank account information',
};

/**
 * The auth prompt's 'They would like to:' list (spec §2), in the spec's order. Only what is still
 * to happen is listed: an immediate payment paid (executed, or `paymentMade`: the prompts after a
 * payment, shown before the page reads the consent again) is no longer asked for; authPromptPaid
 * says it is paid. 'Schedule N future payment(s)' reads 'payment' for exactly 1 and 'payments'
 * otherwise.
 */
export function authPromptItems(consent: TConsent, paymentMade = false): string[] {
  const pending = consent.payments.filter((p) => p.status === 'pending');
  const immediate = paymentMade ? [] : pending.filter((p) => p.type === 'immediate');
  const futureCount = pending.filter((p) => p.type === 'future').length;
  const items: string[] = [];
  if (immediate.length > 0) {
    const total = immediate.reduce((sum, p) => sum + p.amount, 0);
    items.push(`Collect ${formatNaira(total)} immediately`);
  }
  if (futureCount > 0) items.push(`Schedule ${countNoun(futureCount, 'future payment')}`);
  for (const category of requestedDataCategories(consent.dataSharing)) {
    items.push(DATA_ACCESS_ITEMS[category]);
  }
  return items;
}

/**
 * Under an auth prompt the payer asked for (the consent does not ask for sign-in first): back to
 * the consent without signing in, so that asking to sign in is never a dead end.
 */
export const AUTH_PROMPT_BACK = 'Continue without signing in';

/**
 * The immediate payment the payer has paid, as the auth prompt says it: '{amount} paid' (spec
 * §2 Immediate Payment: '{amount} due now' or 'paid'). Null while it is unpaid. `paymentMade`:
 * the prompts after a payment know it is paid before the consent read says so.
 */
export function authPromptPaid(consent: TConsent, paymentMade = false): string | null {
  const immediate = consent.payments.filter((p) => p.type === 'immediate');
  const paid = paymentMade ? immediate : immediate.filter((p) => p.status === 'executed');
  if (paid.length === 0) return null;
  return `${formatNaira(paid.reduce((sum, p) => sum + p.amount, 0))} paid`;
}

/**
 * Whether the auth prompt shows (spec §6): the consent requires auth or has a form, and the
 * visitor is neither signed in nor a public (read-only) viewer.
 */
export function shouldShowAuthPrompt(input: {
  consent: TConsent;
  signedIn: boolean;
  isPublic: boolean;
}): boolean {
  const { consent, signedIn, isPublic } = input;
  const needsIdentity = consent.requirements.requiresAuth || consent.formId !== null;
  return needsIdentity && !signedIn && !isPublic;
}
