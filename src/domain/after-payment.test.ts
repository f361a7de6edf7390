import { describe, expect, it } from 'vitest';
import {
  afterOriginLinkRefused,
  afterPaymentPrompt,
  offersAfterPayment,
  paidOriginOf,
  type TAfterPaymentInput,
  type TPaidOrigin,
} from './after-payment';
import { consentPageView, type TConsentScreenInput } from './consent-screen';
import { aConsent, anImmediatePayment, aPayment } from './test-support/fixtures';

const screenInput: TConsentScreenInput = {
  params: { clientId: 'cli_1', embed: false, isPublic: false },
  load: { state: 'pending' },
  signedIn: false,
  productName: 'Oya Money',
};

const gtbank = {
  bankName: 'Guaranty Trust Bank',
  accountName: 'Adaeze Okafor',
  accountNumber: '0123456785',
  institutionCode: '058',
};

const transfer = (change: Partial<TPaidOrigin> = {}): TPaidOrigin => ({
  method: 'transfer',
  payerBank: gtbank,
  shouldPromptBankAccountLinking: true,
  shouldPromptCardLinking: false,
  ...change,
});

const card = (saveAsked: boolean): TPaidOrigin => ({
  method: 'card',
  payerBank: null,
  shouldPromptBankAccountLinking: false,
  shouldPromptCardLinking: saveAsked,
});

const input = (origin: TPaidOrigin, change: Partial<TAfterPaymentInput> = {}) => ({
  origin,
  signedIn: true,
  signedInWhenPaid: true,
  holdsChargeToken: false,
  granted: false,
  settled: false,
  ...change,
});

describe('afterPaymentPrompt (spec §4 prompts after a payment)', () => {
  it('asks an anonymous payer to sign in to link the account a transfer came from', () => {
    expect(
      afterPaymentPrompt(input(transfer(), { signedIn: false, signedInWhenPaid: false })),
    ).toEqual({
      kind: 'link_account_sign_in',
      payerBank: gtbank,
    });
  });

  it('offers a signed-in payer to link that account', () => {
    expect(afterPaymentPrompt(input(transfer()))).toEqual({
      kind: 'link_origin',
      payerBank: gtbank,
    });
  });

  it('asks nothing for an account already linked, or a sender the bank did not name', () => {
    expect(
      afterPaymentPrompt(input(transfer({ shouldPromptBankAccountLinking: false }))),
    ).toBeNull();
    expect(afterPaymentPrompt(input(transfer({ payerBank: null })))).toBeNull();
    expect(
      afterPaymentPrompt(input(transfer({ payerBank: { ...gtbank, accountNumber: null } }))),
    ).toBeNull();
  });

  it('asks an anonymous payer who ticked Save this card to sign in first', () => {
    expect(
      afterPaymentPrompt(input(card(true), { signedIn: false, signedInWhenPaid: false })),
    ).toEqual({
      kind: 'save_card_sign_in',
    });
  });

  it('saves the kept card of a payer signed in when paying, and links the card afresh after a later sign-in', () => {
    expect(afterPaymentPrompt(input(card(true)))).toEqual({ kind: 'save_card' });
    expect(afterPaymentPrompt(input(card(true), { signedInWhenPaid: false }))).toEqual({
      kind: 'link_card',
    });
  });

  it('saves the card a guest paid with once they sign in, when this page holds its charge token', () => {
    const guest = { signedInWhenPaid: false, holdsChargeToken: true };
    expect(afterPaymentPrompt(input(card(true), { ...guest, signedIn: false }))).toEqual({
      kind: 'save_card_sign_in',
    });
    expect(afterPaymentPrompt(input(card(true), guest))).toEqual({ kind: 'save_card' });
    // A card not asked to be saved is offered nothing, token or not.
    expect(afterPaymentPrompt(input(card(false), guest))).toBeNull();
  });

  it('asks nothing of a card the payer did not ask to save', () => {
    expect(afterPaymentPrompt(input(card(false), { signedIn: false }))).toBeNull();
  });

  it('asks nothing once skipped or done, or of a granted consent', () => {
    expect(afterPaymentPrompt(input(transfer(), { settled: true }))).toBeNull();
    expect(afterPaymentPrompt(input(card(true), { granted: true }))).toBeNull();
  });
});

describe('paidOriginOf (a payment paid before the page opened)', () => {
  it("reads a transfer's sender and its prompt from the consent's payment origin", () => {
    expect(
      paidOriginOf({
        paymentMethod: 'bank_transfer',
        ...gtbank,
        shouldPromptBankAccountLinking: true,
      }),
    ).toEqual(transfer());
  });

  it('reads a card asked to be saved, and nothing of a payment without origin', () => {
    expect(paidOriginOf({ paymentMethod: 'card', shouldPromptCardLinking: true })).toEqual(
      card(true),
    );
    expect(paidOriginOf(null)).toBeNull();
  });
});

describe('afterOriginLinkRefused (Confirm on the link-origin prompt)', () => {
  it('is done when linked, hands an unproven or mandated account to the panel, and retries a fault', () => {
    expect(afterOriginLinkRefused('ACCOUNT_ALREADY_LINKED')).toBe('done');
    expect(afterOriginLinkRefused('PAYMENT_NOT_PROOF_OF_ACCOUNT')).toBe('panel');
    expect(afterOriginLinkRefused('NOT_FOUND')).toBe('panel');
    expect(afterOriginLinkRefused('ACCOUNT_LINKS_BY_MANDATE')).toBe('panel');
    expect(afterOriginLinkRefused('ACCOUNT_LINK_CREATE_FAILED')).toBe('retry');
  });

  it('asks for the BVN when the payer has verified none, then links again', () => {
    expect(afterOriginLinkRefused('BVN_NOT_VERIFIED')).toBe('verify_bvn');
    // Another person's account: verifying cannot make it the payer's; the message says why.
    expect(afterOriginLinkRefused('ACCOUNT_NOT_YOURS')).toBe('retry');
  });
});

describe('offersAfterPayment (the prompt after a payment that granted the consent, item 6)', () => {
  const paidFrom = anImmediatePayment({
    status: 'executed',
    origin: {
      paymentMethod: 'bank_transfer',
      bankName: 'Guaranty Trust Bank',
      accountNumber: '0123456789',
      institutionCode: '000013',
      shouldPromptBankAccountLinking: true,
    },
  });
  const grantedByPayment = aConsent({ status: 'granted', payments: [paidFrom] });
  const offered = { settled: false };

  it('offers the link while the payer has not settled it, though the consent reads granted', () => {
    expect(offersAfterPayment(grantedByPayment, offered)).toBe(true);
    expect(
      consentPageView({ ...screenInput, load: { state: 'loaded', consent: grantedByPayment } })
        .screen.kind,
    ).toBe('immediate-payment');
  });

  it('gives way to Consent Granted once settled', () => {
    expect(offersAfterPayment(grantedByPayment, { settled: true })).toBe(false);
    expect(
      consentPageView({
        ...screenInput,
        offerSettled: true,
        load: { state: 'loaded', consent: grantedByPayment },
      }).screen.kind,
    ).toBe('granted');
  });

  it('offers the link on the flag alone, as the consent read shows it (no account named)', () => {
    const asRead = anImmediatePayment({
      status: 'executed',
      origin: { paymentMethod: 'bank_transfer', shouldPromptBankAccountLinking: true },
    });
    const consent = aConsent({ status: 'granted', payments: [asRead] });
    expect(offersAfterPayment(consent, offered)).toBe(true);
  });

  it('offers nothing when the payment gave nothing to link', () => {
    const plain = anImmediatePayment({
      status: 'executed',
      origin: { paymentMethod: 'bank_transfer', bankName: 'Guaranty Trust Bank' },
    });
    expect(offersAfterPayment(aConsent({ status: 'granted', payments: [plain] }), offered)).toBe(
      false,
    );
  });

  it('offers nothing on a consent the payer granted (it asks more than the payment)', () => {
    const future = aPayment({ status: 'pending' });
    const consent = aConsent({ status: 'granted', payments: [paidFrom, future] });
    expect(offersAfterPayment(consent, offered)).toBe(false);
  });
});
