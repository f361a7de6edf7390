/*
 * The books (docs/payments.md): each way a payer tried to pay, the keys that protect card fields
 * in transit, and a double-entry ledger in integer kobo whose every transaction sums to zero.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { TCardBrand } from '../../../domain/card-brand';
import { PAYMENT_METHODS } from '../../../domain/constants';
import type { TErrorCode } from '../../../domain/errors';
import {
  ASKING_WINDOW_REASON,
  ATTEMPT_PURPOSES,
  CALLED_OFF_REASON,
} from '../../../domain/payment-attempts';
import { accountLinks, payerAccounts } from './accounts';
import { consents, merchants, payments } from './consents';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export { PAYMENT_METHODS };
export const ATTEMPT_STATUSES = ['pending', 'in_progress', 'completed', 'failed'] as const;
export const ATTEMPT_STAGES = [
  /** The card network has the charge and has not answered yet. */
  'charging',
  /** The issuer asked for the card's PIN, once its details showed it needs one. */
  'awaiting_pin',
  /** The issuer asked for an OTP (or a bank token). */
  'awaiting_otp',
  /** The issuer asked for a 3-D Secure check in the payer's browser. */
  'awaiting_3ds',
  /** A one-time account is open for the payer's transfer. */
  'awaiting_transfer',
  /** The card network did not answer the charge: it is asked about by reference first. */
  'unanswered',
  /** Failed: its network took nothing (or never said): the next network may take a new try. */
  'retry_elsewhere',
  /** Failed: the payer's new try went to the next network. */
  'tried_elsewhere',
  /** Failed: a pushed terminal's payment request called off unpaid (migration 0075). */
  'called_off',
] as const;

/**
 * One way a payer tried to pay an immediate payment: a card charge, a transfer into a one-time
 * account, a debit of a saved account, a chip card. A payment has at most one completed attempt.
 */
export const paymentAttempts = pgTable(
  'payment_attempts',
  {
    id: text('id').primaryKey(),
    /**
     * What the charge is for (src/domain/payment-attempts.ts ATTEMPT_PURPOSES): a payment's, with
     * its payment and consent; or a card link's test charge, with its link (and then its id is
     * the link's, the reference the card network knows it by).
     */
    purpose: text('purpose', { enum: ATTEMPT_PURPOSES }).notNull().default('payment'),
    paymentId: text('payment_id').references(() => payments.id, { onDelete: 'cascade' }),
    consentId: text('consent_id').references(() => consents.id, { onDelete: 'cascade' }),
    linkId: text('link_id').references(() => accountLinks.id, { onDelete: 'cascade' }),
    method: text('method', { enum: PAYMENT_METHODS }).notNull(),
    status: text('status', { enum: ATTEMPT_STATUSES }).notNull().default('pending'),
    /** Where an in-progress attempt waits (docs/payments.md "States"); null once it ended. */
    stage: text('stage', { enum: ATTEMPT_STAGES }),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** The signed-in payer, or null for a payment made without sign-in (spec §6). */
    payerId: text('payer_id'),
    /**
     * A card charge started without sign-in: the SHA-256 of its own token, which went to the page
     * that started it, alone; only that page may answer the charge's OTP (docs/payments.md).
     */
    ownerTokenHash: text('owner_token_hash'),
    provider: text('provider').notNull(),
    /**
     * Why new work went to `provider` rather than the first of its list, in plain words, for the
     * payment's timeline ("Sent to Monnify: Paystack eliminated at 14:02 after 5 failures in a
     * row"); null when the first took it (docs/routing.md).
     */
    routeNote: text('route_note'),
    providerReference: text('provider_reference'),
    /**
     * The provider's transaction that took the money, where it is not the call's reference: a
     * pushed terminal's payment request (providerReference) produces a transaction of its own,
     * which a refund or give-back names.
     */
    chargeReference: text('charge_reference'),
    /** What the payer sees now (spec §4 progress text), e.g. 'Waiting for transfer confirmation...'. */
    stepText: text('step_text'),
    /**
     * The bank's words to the payer while a card waits for its OTP or 3-D Secure check (spec §5
     * OTP data displayMessage: it also says whether the bank asks for a token instead of an OTP),
     * so a page opened again shows the same screen.
     */
    displayMessage: text('display_message'),
    /** What is kept of a card: brand, first 6, last 4. Never the number, CVV or PIN. */
    cardBrand: text('card_brand').$type<TCardBrand>(),
    cardFirst6: text('card_first6'),
    cardLast4: text('card_last4'),
    saveCard: boolean('save_card').notNull().default(false),
    /**
     * A card the signed-in payer asked to save (saveCard): its expiry and, once the charge
     * succeeded, the provider's token, until POST /api/payments/save-card puts it on an account.
     */
    cardExpiryMonth: integer('card_expiry_month'),
    cardExpiryYear: integer('card_expiry_year'),
    cardToken: text('card_token'),
    /** The account the card was saved to; set once, in the statement that checks it was not. */
    cardSavedTo: text('card_saved_to').references(() => payerAccounts.id, { onDelete: 'set null' }),
    cardSavedAt: timestamp('card_saved_at', { withTimezone: true }),
    /**
     * When the open one-time account was handed to a caller other than the one it was opened for
     * (another payer, or a page without its token): from then on anyone may have sent the money,
     * and the payment proves no one's account for linking (docs/accounts.md "Linking from a
     * payment").
     */
    transferSharedAt: timestamp('transfer_shared_at', { withTimezone: true }),
    /** The one-time transfer account (spec §3 Transfer details) while this attempt waits on it. */
    transferDetails: jsonb('transfer_details').$type<{
      bankName: string;
      accountNumber: string;
      accountName: string;
      expiresAt: string;
    }>(),
    /** The catalogue's code and the provider's reason when it failed. */
    failureCode: text('failure_code').$type<TErrorCode>(),
    failureReason: text('failure_reason'),
    /** The saved account a debit attempt debits (method 'account'), so its origin is known. */
    debitAccountId: text('debit_account_id').references(() => payerAccounts.id, {
      onDelete: 'set null',
    }),
    /**
     * Money this attempt took that goes back (it reached a payment paid by another way): 'owed'
     * from the transaction that booked it back out, 'settled' once the provider gave it back (or
     * said it never took it). The reconciler asks again about what stays owed. 'by_hand': owed, and
     * no call of ours gives it back (a pushed terminal's, owed before its transaction was kept:
     * none is written now), for an operator to refund at the provider and record (`npm run
     * refund:given-back`, attempts/settlements.ts recordRefundGivenBack); the reconciler leaves it.
     */
    refund: text('refund', { enum: ['owed', 'by_hand', 'settled'] }),
    /** The provider's reference of the refund an operator made for a 'by_hand' refund. */
    refundReference: text('refund_reference'),
    /**
     * While it awaits 3-D Secure: the bank's challenge page (spec §2 Reconnect opens it again) and
     * the end of the time it is given (THREE_DS_CHALLENGE_MS), after which the reconciler ends it.
     */
    challengeUrl: text('challenge_url'),
    challengeExpiresAt: timestamp('challenge_expires_at', { withTimezone: true }),
    /**
     * A transfer into its one-time account that the bank sent back (the wrong amount, after the
     * account expired, after the payment was paid), the latest one: what the payer is told.
     */
    returned: jsonb('returned').$type<{
      amount: number;
      reason: 'wrong_amount' | 'expired' | 'already_paid';
    }>(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('payment_attempts_payment').on(t.paymentId),
    uniqueIndex('payment_attempts_one_completed')
      .on(t.paymentId)
      .where(sql`status = 'completed'`),
    uniqueIndex('payment_attempts_provider_reference').on(t.provider, t.providerReference),
    // One charge at the card network per payment at a time, answered or asked about by its
    // reference: a second waits its turn (409), and nothing charges a payment whose charge got no
    // answer until its network said what it took (migration 0064).
    uniqueIndex('payment_attempts_one_charging')
      .on(t.paymentId)
      .where(sql`stage IN ('charging', 'unanswered')`),
    // What the watch of failed-over charges asks about: no word from their network yet.
    index('payment_attempts_failed_over_unknown')
      .on(t.updatedAt)
      .where(
        sql`stage IN ('retry_elsewhere', 'tried_elsewhere') AND failure_reason = ${sql.raw(`'${ASKING_WINDOW_REASON}'`)} AND refund IS NULL`,
      ),
    // One open one-time account per payment: asking again answers the same account.
    uniqueIndex('payment_attempts_one_open_transfer')
      .on(t.paymentId)
      .where(sql`stage = 'awaiting_transfer'`),
    // What the reconciler looks for: refunds still owed.
    // What the reconciler's sweep ends: 3-D Secure challenges left unanswered.
    index('payment_attempts_challenge_expiry')
      .on(t.challengeExpiresAt)
      .where(sql`stage = 'awaiting_3ds'`),
    index('payment_attempts_refund_owed')
      .on(t.updatedAt)
      .where(sql`refund = 'owed'`),
    // What only an operator can give back, read by the metrics (migration 0052).
    index('payment_attempts_refund_by_hand')
      .on(t.updatedAt)
      .where(sql`refund = 'by_hand'`),
    // What the reconciler asks about again: pushed terminals' requests called off unpaid, by
    // their state and the reason the call-off writes (CALLED_OFF_REASON, migration 0075).
    index('payment_attempts_called_off')
      .on(t.updatedAt)
      .where(
        sql`stage = 'called_off' AND failure_reason = ${sql.raw(`'${CALLED_OFF_REASON}'`)} AND refund IS NULL`,
      ),
    check('payment_attempts_amount_positive', sql`amount > 0`),
    // A payment's attempt has its payment and consent, a link's test charge its link (0076).
    check(
      'payment_attempts_purpose_owner',
      sql`(purpose = 'payment' AND payment_id IS NOT NULL AND consent_id IS NOT NULL AND link_id IS NULL) OR (purpose = 'link_test' AND link_id IS NOT NULL AND payment_id IS NULL AND consent_id IS NULL)`,
    ),
    // One test charge a card link.
    uniqueIndex('payment_attempts_link')
      .on(t.linkId)
      .where(sql`link_id IS NOT NULL`),
  ],
);

/**
 * Tries of one card on one payment (docs/payments.md "Limits"): wrong PINs or card details, and
 * charges at the network that have not answered yet. A card is known here only by its keyed hash.
 */
export const cardPaymentTries = pgTable(
  'card_payment_tries',
  {
    paymentId: text('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    /** HMAC-SHA-256 of the card number under a server secret (services/payments/card-tries.ts). */
    cardKey: text('card_key').notNull(),
    tries: integer('tries').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.paymentId, t.cardKey] }),
    check('card_payment_tries_tries', sql`tries >= 0`),
  ],
);

/**
 * RSA-OAEP key pairs that wrap the AES keys of card fields (spec §7 encryption). The newest is
 * handed out; a replaced key still decrypts until `retiresAt`. The private key is kept sealed
 * with a server secret, never in the clear.
 */
export const cardEncryptionKeys = pgTable('card_encryption_keys', {
  keyId: text('key_id').primaryKey(),
  publicKeyPem: text('public_key_pem').notNull(),
  privateKeySealed: text('private_key_sealed').notNull(),
  createdAt: createdAt(),
  /** null while it is the key handed out; set when a newer key replaces it. */
  retiresAt: timestamp('retires_at', { withTimezone: true }),
});

export const LEDGER_ACCOUNT_KINDS = [
  /**
   * Money from outside our books, one account per way in ('payer_source:card',
   * 'payer_source:bank_transfer', …): it goes negative as payers pay.
   */
  'payer_source',
  /** A merchant's collection ("shield") wallet. */
  'collection_wallet',
  /** What the provider holds for us between a charge and its settlement. */
  'provider_clearing',
  /**
   * Money that left our books to a bank account ('payout_destination:bank_account'): it grows
   * as payouts complete.
   */
  'payout_destination',
] as const;

/** An account of our books, e.g. 'collection_wallet:{merchantId}'. */
export const ledgerAccounts = pgTable('ledger_accounts', {
  id: text('id').primaryKey(),
  kind: text('kind', { enum: LEDGER_ACCOUNT_KINDS }).notNull(),
  merchantId: text('merchant_id').references(() => merchants.id),
  /** Kept with every entry, in the entry's own statement; checkLedger proves it is the sum. */
  balance: bigint('balance', { mode: 'number' }).notNull().default(0),
  createdAt: createdAt(),
});

export const LEDGER_TRANSACTION_KINDS = [
  'card_payment',
  'transfer_payment',
  'transfer_return',
  'account_debit',
  'chip_card_payment',
  /** A card's test charge that proves the payer holds the card they link (docs/accounts.md). */
  'link_test_charge',
  /** That test charge, refunded to the card at once. */
  'test_charge_refund',
  /** A payer's test transfer that proves they hold the account they link (docs/accounts.md). */
  'link_test_transfer',
  /** That test transfer, given back to the payer at once. */
  'link_test_transfer_refund',
  /** A charge that succeeded on a payment someone had paid meanwhile, given back at once. */
  'card_refund',
  /** A granted future payment debited from a bound account (docs/payments.md "Collecting"). */
  'future_payment_debit',
  /** A future payment's debit the bank made after the payment was cancelled: held to give back. */
  'cancelled_debit',
  /** That debit, given back to the payer's account. */
  'cancelled_debit_return',
  /** A payer's wallet released to a payout on its way to their bank (docs/payments.md "Releasing"). */
  'payout',
  /** That payout, credited by the bank. */
  'payout_settled',
  /** That payout, refused by the bank and put back in the wallet. */
  'payout_return',
  /** A merchant's refund of a paid payment, given back to the payer (docs/payments.md "Refunds"). */
  'merchant_refund',
] as const;

/** One movement of money: its entries sum to zero (checked by a trigger at commit). */
export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind', { enum: LEDGER_TRANSACTION_KINDS }).notNull(),
    paymentId: text('payment_id').references(() => payments.id),
    attemptId: text('attempt_id').references(() => paymentAttempts.id),
    /** What makes the movement unique, so a retry books nothing twice. */
    reference: text('reference').notNull(),
    narration: text('narration').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_transactions_reference').on(t.kind, t.reference),
    index('ledger_transactions_payment').on(t.paymentId),
  ],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransactions.id),
    accountId: text('account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    /** Kobo: positive credits the account, negative debits it. */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_entries_transaction').on(t.transactionId),
    index('ledger_entries_account').on(t.accountId),
    check('ledger_entries_amount_nonzero', sql`amount <> 0`),
  ],
);

/**
 * A chip purchase from a card reader (spec §7 chip-purchase; docs/terminal.md), one per rrn: the
 * reader's retrieval reference number names one transaction across the acquirer, so a replay
 * books nothing twice. Kept: the reader, the amount, the masked card number (first 6 / last 4)
 * and the acquirer's answer. Never the card number, track 2, PIN block or PIN.
 */
export const terminalPurchases = pgTable(
  'terminal_purchases',
  {
    id: text('id').primaryKey(),
    rrn: text('rrn').notNull(),
    attemptId: text('attempt_id')
      .notNull()
      .references(() => paymentAttempts.id, { onDelete: 'cascade' }),
    paymentId: text('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    serial: text('serial').notNull(),
    tid: text('tid').notNull(),
    mid: text('mid').notNull(),
    /** '539983******1006': what receipts show. */
    maskedPan: text('masked_pan').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** The reader's date and time of the transaction, as it sent it. */
    transDatetime: text('trans_datetime').notNull(),
    /** The acquirer's ISO 8583 response code and authorisation code; null while it is asked. */
    responseCode: text('response_code'),
    authCode: text('auth_code'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('terminal_purchases_rrn').on(t.rrn),
    index('terminal_purchases_payment').on(t.paymentId),
    check('terminal_purchases_amount_positive', sql`amount > 0`),
  ],
);

export const PAYOUT_STATUSES = [
  /** Taken from the wallet; the bank is being asked (or its answer was lost). */
  'paying',
  /** The bank credited the account. */
  'completed',
  /** The bank refused: the amount is back in the wallet. */
  'failed',
] as const;
export type TPayoutStatus = (typeof PAYOUT_STATUSES)[number];

/**
 * A payer's release of what their payment requests collected (spec §7 POST
 * /api/payments/release-pending; docs/payments.md "Releasing"): the whole wallet at the time,
 * sent to one of their linked accounts. The account's bank, number and name are kept as paid.
 */
export const payouts = pgTable(
  'payouts',
  {
    id: text('id').primaryKey(),
    payerId: text('payer_id').notNull(),
    /** The wallet's owner: the payer as a counterparty ('mer_{payerId}'). */
    merchantId: text('merchant_id')
      .notNull()
      .references(() => merchants.id),
    accountId: text('account_id').references(() => payerAccounts.id, { onDelete: 'set null' }),
    institutionCode: text('institution_code').notNull(),
    accountNumber: text('account_number').notNull(),
    accountName: text('account_name').notNull(),
    bankName: text('bank_name').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** The provider the payout was sent to: its requery asks that one (registry.ts). */
    provider: text('provider').notNull(),
    status: text('status', { enum: PAYOUT_STATUSES }).notNull().default('paying'),
    providerReference: text('provider_reference'),
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
    /** When the bank was last asked: a payout still paying long after it is asked again. */
    askedAt: timestamp('asked_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    index('payouts_payer').on(t.payerId, t.createdAt),
    index('payouts_paying')
      .on(t.askedAt)
      .where(sql`status = 'paying'`),
    check('payouts_amount_positive', sql`amount > 0`),
  ],
);
