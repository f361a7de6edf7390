import type { TErrorCode } from './errors';
import type { TPayerBank } from './schemas/card';
import { isGrantedByPayment } from './granted-by-payment';
import type { TConsent, TPaymentOrigin } from './schemas/consent';

/*
 * What follows a paid immediate payment before the grant (spec §2 prompts, §4 Consent flow): a
 * prompt to link the account the payer paid from, or to save the card they paid with, each
 * asking an anonymous payer to sign in first. The payment screen renders this; it does not
 * decide again.
 */

/** How the payment was paid, and what its completion said of where the money came from. */
export type TPaidOrigin = {
  method: 'transfer' | 'card';
  /** The account a transfer came from, when the bank's notice named it. */
  payerBank: TPayerBank | null;
  /** The account a transfer came from is not linked by this payer (spec §3 origin). */
  shouldPromptBankAccountLinking: boolean;
  /** The payer ticked 'Save this card for future payments' (spec §3 origin). */
  shouldPromptCardLinking: boolean;
};

export type TAfterPaymentPrompt =
  /** 'Link this account for future payments?': 'Sign In to Save Account' or 'Skip for Now'. */
  | { kind: 'link_account_sign_in'; payerBank: TPayerBank }
  /** The link-origin prompt: 'Amount paid', the bank, 'Confirm' or 'Maybe later'. */
  | { kind: 'link_origin'; payerBank: TPayerBank }
  /** 'Save Your Card', compact: 'Sign In & Save Card' or 'Skip for Now'. */
  | { kind: 'save_card_sign_in' }
  /**
   * 'Save Your Card' on the card kept from the payment: the account to put it on, no card typed
   * again and no test charge.
   */
  | { kind: 'save_card' }
  /**
   * A payer who signed in after paying by card on another page (this one holds no proof of the
   * charge): the card is linked afresh, by the account-linking panel's card flow.
   */
  | { kind: 'link_card' };

export type TAfterPaymentInput = {
  origin: TPaidOrigin;
  /** Signed in now. */
  signedIn: boolean;
  /** Signed in when the card was charged: the card is the payer's to save. */
  signedInWhenPaid: boolean;
  /**
   * This page holds the token of the charge it made without sign-in (src/web/api/payments.ts):
   * the proof that lets the payer, once signed in, save the card that paid (docs/accounts.md
   * "Saving a paid card").
   */
  holdsChargeToken: boolean;
  /** The consent is granted already (a reload after the grant): nothing more to ask. */
  granted: boolean;
  /** 'Skip for Now', 'Maybe later', or the prompt's work is done. */
  settled: boolean;
};

/** A transfer's sender the payer could link: its number and bank are known. */
const linkableSender = (bank: TPayerBank | null): bank is TPayerBank =>
  bank !== null && Boolean(bank.accountNumber) && Boolean(bank.institutionCode);

/**
 * The prompt shown after the payment, or null when the grant follows at once. A prompt shows
 * only while the consent is not granted and the payment came from an account or card the payer
 * has not linked (spec §4): a card they asked to save, or a transfer from an account the bank
 * named and the payer has not linked. An anonymous payer is asked to sign in first (spec §4:
 * 'Card payment with origin shouldPromptCardLinking while unauthenticated shows the auth prompt
 * for card saving. After sign-in the card linking prompt appears.'): the card that paid is then
 * saved from the payment when this page proves it paid.
 */
export function afterPaymentPrompt(input: TAfterPaymentInput): TAfterPaymentPrompt | null {
  const { origin, signedIn, signedInWhenPaid, holdsChargeToken, granted, settled } = input;
  if (granted || settled) return null;
  if (origin.method === 'card') {
    if (!origin.shouldPromptCardLinking) return null;
    if (!signedIn) return { kind: 'save_card_sign_in' };
    return signedInWhenPaid || holdsChargeToken ? { kind: 'save_card' } : { kind: 'link_card' };
  }
  if (!origin.shouldPromptBankAccountLinking || !linkableSender(origin.payerBank)) return null;
  return signedIn
    ? { kind: 'link_origin', payerBank: origin.payerBank }
    : { kind: 'link_account_sign_in', payerBank: origin.payerBank };
}

/**
 * Where a payment paid before the page opened came from, as the consent's payment keeps it
 * (spec §3 origin): a reload, or the page again after the payer signed in to answer a prompt.
 */
export function paidOriginOf(origin: TPaymentOrigin | null | undefined): TPaidOrigin | null {
  if (!origin) return null;
  return {
    method: origin.paymentMethod === 'card' ? 'card' : 'transfer',
    payerBank: payerBankOf(origin),
    shouldPromptBankAccountLinking: origin.shouldPromptBankAccountLinking === true,
    shouldPromptCardLinking: origin.shouldPromptCardLinking === true,
  };
}

/** The bank account a payment came from, as its origin records it; null for a card or unknown. */
export function payerBankOf(origin: TPaymentOrigin | null | undefined): TPayerBank | null {
  if (!origin?.bankName) return null;
  return {
    bankName: origin.bankName,
    accountName: origin.accountName ?? null,
    accountNumber: origin.accountNumber ?? null,
    institutionCode: origin.institutionCode ?? null,
  };
}

/**
 * What follows a refused 'Confirm' on the link-origin prompt, which links the account by the
 * payment (docs/accounts.md "Linking from a payment"): an account linked already is done; a
 * payment that proves nothing for this page, or a bank that authorises its own mandates, leaves
 * the account to the account-linking panel (a test transfer, or the bank's own step); a payer
 * with no verified BVN verifies it there and the link is tried again; anything else (the bank
 * not answering) may be tried again.
 */
export function afterOriginLinkRefused(
  code: TErrorCode,
): 'done' | 'panel' | 'verify_bvn' | 'retry' {
  switch (code) {
    case 'ACCOUNT_ALREADY_LINKED':
      return 'done';
    // The payer has verified no BVN: asked for it once, there, then the link is tried again.
    case 'BVN_NOT_VERIFIED':
      return 'verify_bvn';
    case 'NOT_FOUND':
    case 'PAYMENT_NOT_PROOF_OF_ACCOUNT':
    case 'ACCOUNT_LINKS_BY_MANDATE':
    case 'ACCOUNT_LINKS_BY_CARD':
    case 'ACCOUNT_NOT_SUPPORTED':
    case 'ACCOUNT_LINK_IN_PROGRESS':
      return 'panel';
    default:
      return 'retry';
  }
}

/**
 * Whether a consent its payment granted still offers, after the payment, to link the account or
 * save the card that paid: the prompt is an offer, not a gate. The server granted the consent when
 * the payment executed, so a payer who closes the tab leaves it granted; a payer still on the page
 * is offered the prompt until they settle it ('Skip for Now', 'Maybe later', or the prompt's work
 * done), and the page then shows Consent Granted.
 */
export function offersAfterPayment(consent: TConsent, { settled }: { settled: boolean }): boolean {
  if (settled || consent.status !== 'granted' || !isGrantedByPayment(consent)) return false;
  const paid = consent.payments.find((p) => p.type === 'immediate');
  const origin = paidOriginOf(paid?.origin);
  if (!origin) return false;
  // The consent read names no account or card (docs/payments.md "Who reads a payment"): its flags
  // choose the screen (the server offers the link only for a sender the bank named), and the page
  // reads the account from the payment for the prompt itself (afterPaymentPrompt).
  return origin.method === 'card'
    ? origin.shouldPromptCardLinking
    : origin.shouldPromptBankAccountLinking;
}
