import { z } from 'zod/mini';
import { PAYMENT_METHODS } from '../constants';
import { RECENTS_LIMIT } from '../constants';
import { ZKobo } from './consent';
import { ZIdentifier } from './fields';
import { ZChargeTokenAnswer, ZPayerBank, ZPayerCard } from './card';

// spec §3 Transfer details: the one-time account the payer transfers into.
export const ZTransferDetails = z.object({
  amount: ZKobo,
  bankName: z.string(),
  accountNumber: z.string(),
  accountName: z.string(),
  expiresAt: z.string(),
});
export type TTransferDetails = z.infer<typeof ZTransferDetails>;

const ZImmediatePaymentBase = z.object({
  type: z.literal('immediate'),
  amount: ZKobo.check(z.gte(1)),
  sourceAccountId: z.string().check(z.minLength(1)),
  narration: z.string(),
  senderName: z.string(),
  location: z.nullable(z.string()),
  originalRequestId: z.nullable(z.string()),
});
/**
 * spec §3 Immediate payment request. The destination is exactly one of: a paypoint; an account of
 * a known user; or a bank account found by name enquiry.
 */
export const ZImmediatePaymentRequest = z.union([
  z.strictObject({ ...ZImmediatePaymentBase.shape, paypointId: z.string().check(z.minLength(1)) }),
  z.strictObject({
    ...ZImmediatePaymentBase.shape,
    destinationAccountId: z.string().check(z.minLength(1)),
    destinationUserId: z.string().check(z.minLength(1)),
  }),
  z.strictObject({
    ...ZImmediatePaymentBase.shape,
    recipientAccountNumber: z.string().check(z.minLength(1)),
    recipientBankCode: z.string().check(z.minLength(1)),
    recipientBankName: z.string().check(z.minLength(1)),
    recipientAccountName: z.string().check(z.minLength(1)),
    nameEnquiryId: z.string().check(z.minLength(1)),
  }),
]);
export type TImmediatePaymentRequest = z.infer<typeof ZImmediatePaymentRequest>;

/**
 * The latest attempt at a payment, as the page needs it to say what happened and what the payer
 * can do next (docs/payments.md "States"). Carried by the payment read and by every payment event,
 * so a page opened again, or one that lost its stream, draws the same screen as one that watched.
 */
export const ZPaymentAttemptState = z.object({
  attemptId: z.string(),
  method: z.enum(PAYMENT_METHODS),
  /**
   * Where it stands: waiting on the payer (a transfer, a PIN, an OTP, a 3-D Secure challenge), waiting
   * on the bank ('charging': asked, not answered yet), or ended.
   */
  state: z.enum([
    'awaiting_transfer',
    'awaiting_pin',
    'awaiting_otp',
    'awaiting_3ds',
    'charging',
    'completed',
    'failed',
  ]),
  /** While awaiting 3-D Secure: the bank's challenge, to open it again (spec §2 Reconnect). */
  challengeUrl: z.nullable(z.string()),
  /**
   * When an open step ends by itself: the one-time account's expiry, or the end of the 10 minutes
   * a 3-D Secure challenge is given; null otherwise.
   */
  expiresAt: z.nullable(z.string()),
  /** Why it failed, in the catalogue's code and words; null unless failed. */
  failureCode: z.nullable(z.string()),
  message: z.nullable(z.string()),
  /**
   * Money that reached us for this attempt and was sent back: a transfer of the wrong amount, one
   * that came after the account expired, or after the payment was already paid; null otherwise.
   */
  returned: z.nullable(
    z.object({ amount: ZKobo, reason: z.enum(['wrong_amount', 'expired', 'already_paid']) }),
  ),
  /**
   * For a card or chip attempt that ended failed: whether the payer's money was taken (false:
   * nothing was charged; true: charged and owed back, refunded by us). Null while open or for
   * other methods.
   */
  charged: z.nullable(z.boolean()),
  /**
   * A card charge its provider did not answer and that took nothing (or whose provider never
   * said, within a few minutes): the payer may try again, through the next card provider,
   * entering the card's steps again. Absent or false otherwise.
   */
  retryElsewhere: z.optional(z.boolean()),
});
export type TPaymentAttemptState = z.infer<typeof ZPaymentAttemptState>;

/**
 * Payment-status event stream, by paymentId (spec §7). 'failed' is ours: the spec's stream
 * reports progress and success, and a page waiting on a 3-D Secure tab or a transfer learns of a
 * failure the same way, with the catalogue's message.
 */
export const ZPaymentStatusEvent = z.object({
  paymentId: z.string(),
  status: z.enum(['in_progress', 'completed', 'failed']),
  /** The step text of spec §4 while in progress, e.g. 'Waiting for transfer confirmation...'. */
  stepText: z.optional(z.string()),
  /** Why it failed, in the catalogue's words. */
  message: z.optional(z.string()),
  eventType: z.optional(z.literal('payment_success')),
  payerBank: z.optional(z.nullable(ZPayerBank)),
  payerCard: z.optional(z.nullable(ZPayerCard)),
  paymentType: z.optional(z.enum(PAYMENT_METHODS)),
  shouldPromptCardLinking: z.optional(z.boolean()),
  shouldPromptBankAccountLinking: z.optional(z.boolean()),
  cardWasSaved: z.optional(z.boolean()),
  /** Ours: the attempt this event is about, as the payment read shows it. */
  attempt: z.optional(ZPaymentAttemptState),
  /**
   * Ours: while the attempt waits for its OTP, the bank's message of the OTP screen (as the
   * payment read's otpDisplayMessage), to whoever may answer it.
   */
  otpDisplayMessage: z.optional(z.string()),
});
export type TPaymentStatusEvent = z.infer<typeof ZPaymentStatusEvent>;

/** GET /api/payments/favorites-and-recents?limit=8 query (spec §7) */
export const ZFavoritesAndRecentsQuery = z.object({
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(50)), RECENTS_LIMIT),
});
export type TFavoritesAndRecentsQuery = z.infer<typeof ZFavoritesAndRecentsQuery>;

/** Someone the payer has paid before. */
export const ZPaymentCounterpartySummary = z.object({
  accountNumber: z.nullable(z.string()),
  accountName: z.string(),
  bankName: z.nullable(z.string()),
  institutionCode: z.nullable(z.string()),
  logo: z.nullable(z.string()),
});
export type TPaymentCounterpartySummary = z.infer<typeof ZPaymentCounterpartySummary>;

/** GET /api/payments/favorites-and-recents answer. The spec does not show it; this is ours. */
export const ZFavoritesAndRecentsResponse = z.object({
  success: z.literal(true),
  favorites: z.array(ZPaymentCounterpartySummary),
  recents: z.array(ZPaymentCounterpartySummary),
});
export type TFavoritesAndRecentsResponse = z.infer<typeof ZFavoritesAndRecentsResponse>;

/** GET /api/payments/history answer. The spec does not show it; this is ours. */
export const ZPaymentHistoryResponse = z.object({
  success: z.literal(true),
  payments: z.array(
    z.object({
      paymentId: z.string(),
      amount: ZKobo,
      narration: z.string(),
      status: z.enum(['pending', 'executed', 'failed']),
      executedAt: z.nullable(z.string()),
      counterpartyName: z.string(),
    }),
  ),
});
export type TPaymentHistoryResponse = z.infer<typeof ZPaymentHistoryResponse>;

/** POST /api/payments/release-pending body (spec §7) */
export const ZReleasePendingRequest = z.object({ destinationAccountId: ZIdentifier });
export type TReleasePendingRequest = z.infer<typeof ZReleasePendingRequest>;

/** A payout of a payer's wallet to one of their linked accounts (docs/payments.md "Releasing"). */
export const ZPayout = z.object({
  payoutId: z.string(),
  /** paying: taken from the wallet, the bank not yet answered; failed: back in the wallet. */
  status: z.enum(['paying', 'completed', 'failed']),
  amount: ZKobo,
  accountId: z.nullable(z.string()),
  bankName: z.string(),
  accountNumber: z.string(),
  accountName: z.string(),
  /** The bank's reason for a failed payout, e.g. 'account_not_found'. */
  failureReason: z.nullable(z.string()),
  createdAt: z.string(),
  endedAt: z.nullable(z.string()),
});
export type TPayout = z.infer<typeof ZPayout>;

/**
 * POST /api/payments/release-pending answer. The spec does not show it; this is ours: `released`
 * is the kobo on their way to the account or credited (0 when nothing was held, or the bank
 * refused), `payout` the payout made, null when there was nothing to release.
 */
export const ZReleasePendingResponse = z.object({
  success: z.literal(true),
  released: ZKobo,
  payout: z.nullable(ZPayout),
});
export type TReleasePendingResponse = z.infer<typeof ZReleasePendingResponse>;

/** GET /api/payments/{paymentId} answer: where a payment stands, for a page that lost its stream. */
export const ZPaymentStateResponse = z.object({
  success: z.literal(true),
  paymentId: z.string(),
  status: z.enum(['pending', 'in_progress', 'completed', 'failed']),
  stepText: z.nullable(z.string()),
  method: z.nullable(z.enum(PAYMENT_METHODS)),
  amount: ZKobo,
  executedAt: z.nullable(z.string()),
  /** The open one-time account, while a transfer is awaited. */
  transferDetails: z.nullable(ZTransferDetails),
  /** Why the latest attempt failed, in the catalogue's words. */
  message: z.nullable(z.string()),
  /** The latest attempt (the one the payer sees), or null before any. */
  attempt: z.nullable(ZPaymentAttemptState),
  /**
   * While a card waits for its OTP: the bank's message of the OTP screen (spec §5 OTP data
   * displayMessage), for a page opened again; null otherwise.
   */
  otpDisplayMessage: z.nullable(z.string()),
  /**
   * Once completed, the bank account the money came from, as its completion event named it
   * (spec §3 origin); null before, for a card, or when the bank did not name the sender.
   */
  payerBank: z.nullable(ZPayerBank),
  /** Once completed, spec §3 origin.shouldPromptBankAccountLinking; false before. */
  shouldPromptBankAccountLinking: z.boolean(),
  /**
   * The payment stream's latest event when this was read (0: none yet): a page that opens the
   * stream with it as `lastEventId` hears only what happened after this answer.
   */
  lastEventId: z.number().check(z.int(), z.nonnegative()),
});
export type TPaymentStateResponse = z.infer<typeof ZPaymentStateResponse>;

/** POST /api/payments/{paymentId}/transfer answer: the one-time account (spec §3). */
/**
 * POST /api/payments/{paymentId}/transfer body, optional: a page without sign-in that opened the
 * account sends the token it got, so asking again does not hand the account to someone else.
 */
export const ZTransferOpenRequest = z.nullish(z.object({ chargeToken: z.optional(ZIdentifier) }));
export type TTransferOpenRequest = z.infer<typeof ZTransferOpenRequest>;

export const ZTransferDetailsResponse = z.object({
  success: z.literal(true),
  paymentId: z.string(),
  transferDetails: ZTransferDetails,
  /**
   * To the page that opened the account without sign-in, alone: its proof of the transfer's
   * payment (docs/accounts.md "Linking from a payment"), with which it reads and follows it.
   */
  chargeToken: ZChargeTokenAnswer,
});
export type TTransferDetailsResponse = z.infer<typeof ZTransferDetailsResponse>;

/** POST /api/payments/{paymentId}/transfer/confirm answer: in progress (spec §2). */
export const ZTransferConfirmResponse = z.object({
  success: z.literal(true),
  paymentId: z.string(),
  status: z.enum(['in_progress', 'completed']),
  stepText: z.string(),
});
export type TTransferConfirmResponse = z.infer<typeof ZTransferConfirmResponse>;

/**
 * POST /api/payments/{paymentId}/attempts/current/cancel body (ours, docs/payments.md "Ending a
 * 3-D Secure check"): without sign-in, the consent whose link the payer holds and the token the
 * charge's answer gave the page.
 */
export const ZCancelAttemptRequest = z.object({
  consentId: z.optional(ZIdentifier),
  chargeToken: z.optional(ZIdentifier),
});
export type TCancelAttemptRequest = z.infer<typeof ZCancelAttemptRequest>;

/** Its answer: the attempt as it ended (failed; completed if the check was answered meanwhile). */
export const ZCancelAttemptResponse = z.object({
  success: z.literal(true),
  attempt: ZPaymentAttemptState,
});
export type TCancelAttemptResponse = z.infer<typeof ZCancelAttemptResponse>;

/** Who may act on a payment without signing in: the holder of its consent link (spec §6). */
export const ZPaymentAccessQuery = z.object({ consentId: z.optional(ZIdentifier) });

/** POST /api/events/tickets answer: a ticket that opens one event stream for a signed-in payer. */
export const ZStreamTicketResponse = z.object({
  success: z.literal(true),
  ticket: z.string(),
  expiresAt: z.string(),
  /**
   * The id of the stream's latest event when the ticket was issued (0: none yet): the stream
   * opened with it as `lastEventId` hears only what happened after the page asked.
   */
  lastEventId: z.number().check(z.int(), z.nonnegative()),
});
