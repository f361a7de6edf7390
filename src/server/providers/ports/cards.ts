import type { TCardBrand } from '../../../domain/card-brand';
import type { TRequeryOutcome } from './common';

/* The cards port: card charges (PIN, OTP, 3-D Secure), their requery and refund. */

/**
 * A card as the payer typed it, decrypted for one call: digits, 'MM/YY', CVV, and its PIN where
 * the payer gave one with the card; null: the charge asks for it if the card needs one
 * ('pin_required').
 */
export type TPlainCard = {
  number: string;
  expiry: string;
  cvv: string;
  pin: string | null;
};

/** What may be kept of a card: its brand and the digits every receipt shows. */
export type TCardSummary = { brand: TCardBrand; first6: string; last4: string };

/** Why a charge failed, for our records and the merchant; the payer reads the catalogue's text. */
export type TCardFailureReason =
  | 'declined'
  | 'insufficient_funds'
  | 'invalid_card'
  | 'incorrect_pin'
  | 'incorrect_otp'
  | 'three_ds_declined'
  | 'timeout'
  /** The reference was asked about (a requery) before the charge arrived: closed. */
  | 'expired';

/** Where a charge stands after a call to the provider. */
export type TCardChargeOutcome =
  | {
      kind: 'succeeded';
      providerReference: string;
      card: TCardSummary;
      /**
       * What charges this card again without its details (a saved card, spec §3
       * integrations.card.token); null when the issuer does not allow it. Kept only for a card
       * the payer asked to save.
       */
      token: string | null;
    }
  /** The issuer asks for the card's PIN, given with submitCardPin (a card charged without one). */
  | { kind: 'pin_required'; providerReference: string; card: TCardSummary }
  | {
      kind: 'otp_required';
      providerReference: string;
      card: TCardSummary;
      /** The issuer's words, e.g. 'Enter the OTP sent to 0803***1234'. */
      displayMessage: string;
    }
  | {
      kind: 'three_ds_required';
      providerReference: string;
      card: TCardSummary;
      /** The issuer's challenge page, opened by the payer's browser. */
      challengeUrl: string;
      displayMessage: string;
    }
  | {
      kind: 'failed';
      /** null when the provider never took the charge (an invalid card, no answer). */
      providerReference: string | null;
      card: TCardSummary | null;
      reason: TCardFailureReason;
    };

export type TCardChargeRequest = {
  /**
   * Ours: one per attempt, sent so a provider that deduplicates can. Our attempt's state, changed
   * atomically, is what keeps a charge from being taken twice (docs/payments.md).
   */
  reference: string;
  amount: number;
  narration: string;
  card: TPlainCard;
};

/** Card charges (PIN, OTP, 3-D Secure), their requery and refund, and which account a card draws on. */
export type TCardsPort = {
  /** The adapter offering it: 'sandbox', or the provider's own name. */
  readonly provider: string;
  /**
   * Charges a card: succeeded, or the step the issuer asks the payer for (its PIN, when none
   * came with the card; an OTP; 3-D Secure), or failed.
   */
  chargeCard(request: TCardChargeRequest): Promise<TCardChargeOutcome>;
  /**
   * Goes on with a charge that asked for the card's PIN. A wrong PIN fails the charge. `card` is
   * the card again as the payer sent it with its PIN, in memory for this one call: a provider
   * whose charge carries the PIN (Monnify) charges it now; the others have the charge waiting.
   */
  submitCardPin(request: {
    providerReference: string;
    pin: string;
    card?: TPlainCard;
  }): Promise<TCardChargeOutcome>;
  /** Completes a charge that asked for an OTP. A wrong OTP fails the charge. */
  submitCardOtp(request: { providerReference: string; otp: string }): Promise<TCardChargeOutcome>;
  /** What became of the charge made with our `reference` (and its OTP or 3-D Secure step). */
  requeryCardCharge(reference: string): Promise<TRequeryOutcome<{ card: TCardSummary }>>;
  /** Gives a succeeded charge back to the card, whole. Safe to repeat for one `reference`. */
  refundCard(request: {
    providerReference: string;
    amount: number;
    reference: string;
  }): Promise<{ refunded: true }>;
  /**
   * Whether a card draws on this bank account, as the card's issuer says: a card links only the
   * account it is issued on (docs/accounts.md "Linking by card"). The card is its number, in
   * memory for this one call, or the token of a card kept after a payment.
   */
  isCardOnAccount(request: {
    card: { number: string } | { token: string };
    institutionCode: string;
    accountNumber: string;
  }): Promise<boolean>;
};
