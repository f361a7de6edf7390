import { PAPER_MANDATE_TTL_MS } from './constants';
import { countNoun } from './plural';
import type { TAccountLink } from './schemas/account-link';
import type { TUserAccount } from './schemas/user-account';

/*
 * A paper mandate (docs/accounts.md "Paper mandates"): the bank links the account only once it
 * approves the form the payer prints, signs and hands in. Until then the payer needs the form and
 * needs to know what happens next: the panel's success step says so and keeps the form offered
 * (no reset after 2 s for it), and the account's row offers the form while the bank has not
 * approved it. The spec (§2 success, §3 mandateType 'paper' with formUrl) has no words for this.
 */

const DAY_MS = 24 * 60 * 60_000;

/** How long the payer has to hand in the signed form: '7 days'. */
const VALIDITY = countNoun(Math.round(PAPER_MANDATE_TTL_MS / DAY_MS), 'day', 'days');

/** What a paper mandate's success step and its row say and offer. */
export const PAPER_MANDATE_TEXT = {
  title: 'Sign Your Mandate Form',
  nextSteps: [
    `Print the form, sign it and give it to your bank within ${VALIDITY}.`,
    "Your account is linked once your bank approves the signed form; until then it shows 'Not authorized yet'.",
  ],
  print: 'Print the mandate form',
  done: 'Done',
} as const;

/**
 * A mandate approved at the bank's page (mandateType 'bank': a provider's direct debit, e.g.
 * Paystack's): the page opens in a new tab, and the bank confirms the mandate after the payer
 * approves it there, which may take a while. Its success step says so and keeps the page offered.
 */
export const BANK_MANDATE_TEXT = {
  title: 'Approve the Direct Debit at Your Bank',
  nextSteps: [
    "Open your bank's page and approve the direct debit on this account.",
    "Your account is linked once your bank confirms it; until then it shows 'Not authorized yet'.",
  ],
  open: "Open your bank's page",
  done: 'Done',
} as const;

/** What a link's success step offers to finish its mandate: a form to print, or the bank's page. */
export type TMandateForm = { type: 'paper' | 'bank'; url: string };

/** The form or bank page of a link that needs one (a paper or bank mandate); null otherwise. */
export function mandateFormOfLink(accountLink: TAccountLink | null): TMandateForm | null {
  if (!accountLink?.formUrl || accountLink.mandateType === 'otp') return null;
  return { type: accountLink.mandateType, url: accountLink.formUrl };
}

/** The form to print of an account whose paper mandate its bank has not approved yet; else null. */
export function paperMandateFormOfAccount(account: TUserAccount): string | null {
  return account.paperMandate?.formUrl ?? null;
}
