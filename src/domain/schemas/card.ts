import { z } from 'zod/mini';
import { CARD_ENCRYPTION_ALGORITHM, CARD_ENCRYPTION_VERSION } from '../constants';
import { ZKobo } from './consent';
import { ZIdentifier, ZText } from './fields';
import { ZAccountNumber } from './user-account';

// spec §3 Card form: what the payer types. Never sent as is: it is encrypted first.
export const ZCardForm = z.object({
  cardNumber: z.string(),
  expiryDate: z.string(),
  cvv: z.string(),
  pin: z.string(),
  saveCard: z.boolean(),
});
export type TCardForm = z.infer<typeof ZCardForm>;

// An RSA-3072 key wraps to 512 base64 characters; a card field's ciphertext is far shorter.
const ZBase64 = z
  .string()
  .check(z.maxLength(2_048), z.regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64'));

/**
 * spec §3 Encrypted card field, §7 Card encryption: RSA-OAEP (SHA-256) wraps a fresh 256-bit
 * AES-GCM key that encrypts one field with a 12-byte IV. Each field has its own envelope.
 */
export const ZEncryptedField = z.object({
  keyId: ZIdentifier,
  encryptedAesKey: ZBase64,
  iv: ZBase64,
  encryptedData: ZBase64,
  algorithm: z.literal(CARD_ENCRYPTION_ALGORITHM),
  version: z.literal(CARD_ENCRYPTION_VERSION),
});
export type TEncryptedField = z.infer<typeof ZEncryptedField>;

// spec §3 Encrypted card
export const ZEncryptedCard = z.object({
  encryptedCardNumber: ZEncryptedField,
  encryptedExpiryDate: ZEncryptedField,
  encryptedCvv: ZEncryptedField,
  encryptedPin: z.optional(ZEncryptedField),
});
export type TEncryptedCard = z.infer<typeof ZEncryptedCard>;

// spec §3 Card linking data: what the page keeps after a card was charged for linking.
export const ZCardLinkingData = z.object({
  paymentId: z.string(),
  obfuscatedCard: z.string(),
  amount: ZKobo,
  narration: z.string(),
  cardWasSaved: z.boolean(),
});
export type TCardLinkingData = z.infer<typeof ZCardLinkingData>;

// spec §3 OTP data
export const ZOtpData = z.object({
  paymentId: z.string(),
  displayMessage: z.string(),
  amount: ZKobo,
});
export type TOtpData = z.infer<typeof ZOtpData>;

// spec §3 3DS data
export const ZThreeDsData = z.object({
  challengeUrl: z.url(),
  paymentId: z.string(),
  amount: ZKobo,
  displayMessage: z.string(),
});
export type TThreeDsData = z.infer<typeof ZThreeDsData>;

/** Save the card to a bank account of the payer (spec §7 card call, linking variant). */
export const ZCardLinkRequest = z.strictObject({
  saveCard: z.literal(true),
  saveToAccount: z.object({ accountNumber: ZAccountNumber, institutionCode: ZIdentifier }),
  cardDetails: ZEncryptedCard,
});

/** Pay an immediate payment with a new card (spec §7 card call, payment variant). */
export const ZCardPaymentRequest = z.strictObject({
  paymentId: ZIdentifier,
  cardDetails: ZEncryptedCard,
  saveCard: z.boolean(),
});

/** Pay an immediate payment from a saved account or card (spec §7 card call). */
export const ZSavedSourcePaymentRequest = z.strictObject({
  paymentId: ZIdentifier,
  sourceAccountId: ZIdentifier,
  amount: ZKobo.check(z.gte(1)),
  narration: z.string(),
});

/** POST /api/payments/card body (spec §7; authenticated) */
export const ZCardChargeRequest = z.union([
  ZCardLinkRequest,
  ZCardPaymentRequest,
  ZSavedSourcePaymentRequest,
]);
export type TCardChargeRequest = z.infer<typeof ZCardChargeRequest>;

/** POST /api/payments/card/public body (spec §7; anonymous): the consent vouches for the call. */
export const ZPublicCardChargeRequest = z.union([
  z.extend(ZCardLinkRequest, { consentId: ZIdentifier }),
  z.extend(ZCardPaymentRequest, { consentId: ZIdentifier }),
]);
export type TPublicCardChargeRequest = z.infer<typeof ZPublicCardChargeRequest>;

/**
 * Ours (docs/payments.md "Who reads a payment"): the token of an attempt a page made without
 * sign-in, given to that page alone. It is the page's proof of the attempt: it reads and follows
 * the payment with it (`?chargeToken=`); a page without it finds no payment once paying began.
 */
export const ZChargeTokenAnswer = z.optional(
  z
    .string()
    .check(
      z.describe(
        'Without sign-in only: the token of this attempt, to this page alone. Send it as ' +
          '`?chargeToken=` to read (GET /api/payments/{paymentId}) and follow ' +
          '(GET /api/events/payments/{paymentId}) the payment; without it the payment reads as ' +
          'unknown (404 NO_IMMEDIATE_PAYMENT) once someone began paying it.',
      ),
    ),
);

/** POST /api/payments/card and /card/public answer (spec §7) */
export const ZCardChargeResponse = z.object({
  success: z.boolean(),
  /**
   * Ours (docs/payments.md "The card's steps"): the issuer asks for the card's PIN, sent with
   * POST /api/payments/card/pin. A card is charged with its details first, and asked for a PIN
   * only where its issuer wants one: a card checked by 3-D Secure answers requires3DS instead.
   */
  requiresPIN: z.optional(z.boolean()),
  requires3DS: z.optional(z.boolean()),
  challengeUrl: z.optional(z.url()),
  requiresOTP: z.optional(z.boolean()),
  paymentId: z.optional(z.string()),
  amount: z.optional(ZKobo),
  displayMessage: z.optional(z.string()),
  transactionReference: z.optional(z.string()),
  orderPaymentReference: z.optional(z.string()),
  message: z.optional(z.string()),
  /**
   * Ours (docs/payments.md "Who answers a charge", "Who reads a payment"): to the page that made
   * the charge without sign-in, alone, whatever the answer (paid at once, waiting, charging). Only
   * this token answers its OTP, and the page sends it (`?chargeToken=`) to read and follow the
   * payment: without it, the charge's payment reads as unknown.
   */
  chargeToken: ZChargeTokenAnswer,
  /**
   * Ours (docs/payments.md "A card that does not answer"): the card network has not answered yet.
   * The charge goes on; its end (completed, or failed with whether anything was charged) comes on
   * the payment's stream and in GET /api/payments/{paymentId}.
   */
  status: z.optional(z.literal('charging')),
});
export type TCardChargeResponse = z.infer<typeof ZCardChargeResponse>;

/** The card that paid, in the only form we ever show or keep: masked (first 6 / last 4). */
export const ZPayerCard = z.object({
  obfuscatedCard: z.string(),
  brand: z.nullable(z.enum(['visa', 'mastercard', 'verve'])),
});
export type TPayerCard = z.infer<typeof ZPayerCard>;

/**
 * The bank account that paid, for the Payment Source box (spec §2). Anyone but the payer who paid
 * reads it masked (src/domain/origin-privacy.ts): no account name, the number as '****1234'.
 */
export const ZPayerBank = z.object({
  bankName: z.string(),
  accountName: z.nullable(z.string()),
  /** The whole number, or masked ('****1234'). */
  accountNumber: z.nullable(z.string()),
  institutionCode: z.nullable(z.string()),
});
export type TPayerBank = z.infer<typeof ZPayerBank>;

/**
 * An OTP, or for banks that ask for one a free-text bank token of at least 1 character (spec §5).
 */
const ZOtpOrBankToken = ZText(50);

/**
 * POST /api/payments/card/pin body (ours): the PIN a charge asked for (requiresPIN), with the
 * card it is for, each field in its envelope as in the card call; the card must be the one
 * charged.
 */
export const ZCardPinRequest = z.strictObject({
  paymentId: ZIdentifier,
  cardDetails: z.extend(ZEncryptedCard, { encryptedPin: ZEncryptedField }),
  consentId: z.optional(ZIdentifier),
  /** Without sign-in: the token the charge's answer gave its page (ZCardChargeResponse). */
  chargeToken: z.optional(ZIdentifier),
});
export type TCardPinRequest = z.infer<typeof ZCardPinRequest>;

/** POST /api/payments/card/complete body (spec §7) */
export const ZCardCompleteRequest = z.object({
  paymentId: ZIdentifier,
  otp: ZOtpOrBankToken,
  consentId: z.optional(ZIdentifier),
  /** Without sign-in: the token the charge's answer gave its page (ZCardChargeResponse). */
  chargeToken: z.optional(ZIdentifier),
});
export type TCardCompleteRequest = z.infer<typeof ZCardCompleteRequest>;

/** POST /api/payments/card/complete answer (spec §7) */
export const ZCardCompleteResponse = z.object({
  success: z.boolean(),
  message: z.optional(z.string()),
  obfuscatedCard: z.optional(z.string()),
  payerCard: z.optional(ZPayerCard),
  paymentType: z.optional(z.enum(['immediate', 'future', 'card_linking'])),
  shouldPromptCardLinking: z.optional(z.boolean()),
  amount: z.optional(ZKobo),
  narration: z.optional(z.string()),
  /**
   * Ours (docs/payments.md "A card that does not answer"): the card network did not answer the
   * OTP, which may have charged the card. The charge `transactionReference` is asked about by its
   * reference; its end comes on the payment's stream and in GET /api/payments/{paymentId}.
   */
  status: z.optional(z.literal('charging')),
  transactionReference: z.optional(z.string()),
});
export type TCardCompleteResponse = z.infer<typeof ZCardCompleteResponse>;

/** POST /api/payments/save-card body (spec §7; authenticated) */
export const ZSaveCardRequest = z.object({
  paymentId: ZIdentifier,
  accountNumber: ZAccountNumber,
  institutionCode: ZIdentifier,
  /** A card paid without sign-in: the charge's token, which only the page that paid holds. */
  chargeToken: z.optional(ZIdentifier),
});
export type TSaveCardRequest = z.infer<typeof ZSaveCardRequest>;

/** POST /api/payments/save-card answer (spec §7) */
export const ZSaveCardResponse = z.object({ ok: z.boolean(), message: z.string() });
export type TSaveCardResponse = z.infer<typeof ZSaveCardResponse>;

/** GET /api/encryption/public-key answer (spec §7) */
export const ZEncryptionPublicKeyResponse = z.object({
  // A pattern: startsWith would give the OpenAPI document zod's non-standard 'starts_with' format.
  publicKey: z.string().check(z.regex(/^-----BEGIN PUBLIC KEY-----/)),
  keyId: ZIdentifier,
});
export type TEncryptionPublicKeyResponse = z.infer<typeof ZEncryptionPublicKeyResponse>;

/** Card-linking event stream, per user id (spec §7). */
export const ZCardLinkingEvent = z.discriminatedUnion('event', [
  z.object({
    event: z.literal('card_linking_success'),
    paymentId: z.string(),
    message: z.optional(z.string()),
  }),
  z.object({ event: z.literal('card_linking_error'), paymentId: z.string(), error: z.string() }),
  z.object({
    event: z.literal('card_linking_progress'),
    paymentId: z.string(),
    message: z.optional(z.string()),
  }),
  z.object({ event: z.literal('card_linking_failed'), paymentId: z.string(), error: z.string() }),
]);
export type TCardLinkingEvent = z.infer<typeof ZCardLinkingEvent>;
