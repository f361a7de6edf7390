/**
 * Business constants and limits of spec §9 (and the few §2/§7 numbers that go with them). Timings
 * are data here so that reducers and tests never start timers: the page schedules, the domain
 * only says how long.
 */
import type { TMerchantColours } from './schemas/consent';

// spec §9 Currency
export const CURRENCY_CODE = 'NGN';
export const CURRENCY_SYMBOL = '₦';
export const CURRENCY_LOCALE = 'en-NG';
export const KOBO_PER_NAIRA = 100;

// spec §9 Account number and verification inputs
export const ACCOUNT_NUMBER_LENGTH = 10;
export const ACCOUNT_SEARCH_DEBOUNCE_MS = 500;
export const VERIFICATION_CARD_MAX_LENGTH = 4;
export const VERIFICATION_OTP_MAX_LENGTH = 6;
export const VERIFICATION_OTHER_MAX_LENGTH = 50;
export const VALIDATING_CANCEL_AFTER_MS = 3_000;

// spec §9 OTP and PIN
export const OTP_LENGTH = 6;
export const PIN_LENGTH = 4;
export const OTP_RETRY_AFTER_MS = 15_000;

// spec §9 Card input
export const CARD_BRAND_NUMBER_LENGTH = 16;
export const CARD_NUMBER_INPUT_MAX_LENGTH = 23;
export const CARD_NUMBER_MIN_DIGITS = 16;
export const CARD_NUMBER_MAX_DIGITS = 19;
export const CARD_NUMBER_MASK_MIN_LENGTH = 8;
export const CARD_EXPIRY_INPUT_LENGTH = 5;
export const CVV_MAX_LENGTH = 4;

// spec §9 Panel and page timings
export const PANEL_RESET_AFTER_SUCCESS_MS = 2_000;
export const LONG_PRESS_DELETE_MS = 500;
export const SUCCESS_UI_MS = 1_500;

// spec §9 Test card charge made when linking a card, refunded immediately (kobo)
export const TEST_CARD_CHARGE_MIN_KOBO = 100;
export const TEST_CARD_CHARGE_MAX_KOBO = 1_000;

// spec §9 Progress values and their timings
export const PROGRESS_AWAITING_3DS = 25;
/** spec §2, §4 step texts the server also reports on the payment stream. */
export const STEP_TEXT_AWAITING_TRANSFER = 'Waiting for transfer confirmation...';
export const STEP_TEXT_AWAITING_3DS = 'Awaiting 3D Secure authentication...';
export const STEP_TEXT_RETRYING = 'Retrying payment...';
/** A card charge the bank has not answered yet (ours: the spec has no step text for it). */
export const STEP_TEXT_BANK_ANSWERING = 'Your bank is still answering...';
/** How long a card charge runs before the page says the bank is still answering. */
export const CARD_SLOW_AFTER_MS = 4_000;
export const PROGRESS_PAYMENT_RECEIVED = 33;
export const PROGRESS_LINKING_STARTED = 50;
export const PROGRESS_PAYMENT_PROCESSED = 66;
export const PROGRESS_LINKING_ADVANCED = 75;
export const PROGRESS_COMPLETE = 100;
export const PROGRESS_PULSE_STEP = 3;
export const MOCK_PROGRESS_STEP_MS = 1_000;
export const PAYMENT_COMPLETION_DELAY_MS = 3_000;

// spec §9 Consent refresh and grant screen
export const CONSENT_REFRESH_AFTER_PAYMENT_MS = 1_000;
export const GRANT_SUCCESS_SCREEN_MS = 1_500;

// spec §9 After a card is saved
export const CARD_SAVE_INITIAL_WAIT_MS = 1_500;
export const CARD_SAVE_MAX_POLLS = 10;
export const CARD_SAVE_POLL_INTERVAL_MS = 200;

// spec §9 Consent expiry on creation: 24 h
export const CONSENT_EXPIRY_MS = 86_400_000;

// spec §9 Copy feedback 'Copied!'
export const COPY_FEEDBACK_MS = 2_000;
export const COPIED_TEXT = 'Copied!';

// spec §9 Recents
export const RECENTS_LIMIT = 8;

// spec §9 Default colours
export const DEFAULT_MERCHANT_COLOURS: TMerchantColours = {
  primaryColour: '#FE7048',
  primaryText: '#FFFFFF',
  secondaryColour: '#1f2937',
  secondaryText: '#FFFFFF',
};

// spec §2 and §9 Transfer details
export const DEFAULT_TRANSFER_BANK_NAME = 'Rubies MFB';
/**
 * How long a one-time transfer account takes money: 30 minutes from its issue. The page counts
 * down to the account's own expiry (transfer-details.ts), not the spec's fixed '29m : 30s'.
 */
export const ONE_TIME_ACCOUNT_TTL_MS = 30 * 60 * 1_000;

// spec §9 Embedding and layout
export const EMBED_MIN_HEIGHT_PX = 200;
export const EMBED_WINDOW_HEIGHT_RATIO = 0.35;
export const EMBED_HEIGHT_EXTRA_PX = 20;
/**
 * The page's own debounce of height updates, inside the spec's 50–200 ms. Every height change
 * is reported through it, the account-linking panel's and the details' included (spec §9: the
 * panel reports its height after 100 ms, the details recalculate theirs after 100 ms).
 */
export const HEIGHT_UPDATE_DEBOUNCE_MS = 100;
// spec §2 Consent Granted: the first two future payments are listed, then '+N more payment(s)'.
export const GRANTED_FUTURE_PREVIEW_COUNT = 2;
/** Wider than a phone from here (the CSS media queries spell it as `768px`: CSS cannot import). */
export const MOBILE_BREAKPOINT_PX = 768;
export const ACCOUNT_LIST_MAX_HEIGHT_PX = 330;

// spec §2 Step dots
export const STEP_DOT_MAX_LOGOS = 3;

// spec §9 Data categories, in the order the spec lists them
export const DATA_CATEGORIES = ['bvnData', 'ninData', 'userImages', 'bankAccounts'] as const;

// spec §9 Chip-card terminal
export const TERMINAL_CURRENCY_CODE = '0156';
export const TERMINAL_TRANSACTION_TYPE = 10;
export const TERMINAL_DO_TRADE_ARGS = [3, 20] as const;
export const TERMINAL_SDK_MAX_LOAD_RETRIES = 5;
export const TERMINAL_BLUETOOTH_NAME_PREFIXES = [
  'QP',
  'MPOS',
  'QPOS',
  'VEL',
  'MIPS',
  'watu',
  'POINT',
] as const;
/**
 * Ours (docs/terminal.md): the most one chip purchase may be, ₦10,000,000.00 in kobo; above it
 * the terminal answers 'Transaction amount is out of range. Please use a smaller amount.'
 */
export const TERMINAL_MAX_AMOUNT_KOBO = 1_000_000_000;

// spec §7 Card encryption
export const CARD_ENCRYPTION_ALGORITHM = 'RSA-OAEP+AES-GCM';
export const CARD_ENCRYPTION_VERSION = '1.0';
export const CARD_ENCRYPTION_RSA_HASH = 'SHA-256';
export const CARD_ENCRYPTION_AES_KEY_BITS = 256;
export const CARD_ENCRYPTION_IV_BYTES = 12;

// spec §7 Caching and concurrency: how long the page's query cache keeps a call's answer fresh,
// for the calls the page caches (TanStack Query shares identical calls in flight by itself).
export const CACHE_TTL_MS = {
  authMe: 5 * 60_000,
  default: 5 * 60_000,
} as const;
/** A concurrent identical call polls for the first one's answer this often. */
export const IN_FLIGHT_POLL_MS = 100;

// spec §3 Browser storage keys
export const STORAGE_KEYS = {
  token: 'paymonaToken',
  user: 'paymonaUser',
  attestationUserData: 'attesttool_user_data',
  identifiedTo: 'oyaIdentifiedTo',
} as const;

// spec §6 Merchant or agent mode headers
export const IDENTIFY_TO_HEADER = 'x-identify-to';
export const MERCHANT_ID_HEADER = 'x-merchant-id';

// Account links (docs/accounts.md): how long each mandate waits for the payer or the bank, and
// how many wrong answers to the alternate service's auth parameters cancel it. A test transfer's
// link lasts as long as its one-time account (ONE_TIME_ACCOUNT_TTL_MS).
export const AUTH_PARAMS_LINK_TTL_MS = 15 * 60_000;
export const PAPER_MANDATE_TTL_MS = 7 * 24 * 60 * 60_000;
/** A mandate approved at the bank's page: the bank may take a day or two to confirm it. */
export const BANK_PAGE_MANDATE_TTL_MS = 3 * 24 * 60 * 60_000;
export const AUTH_PARAMS_MAX_TRIES = 5;
// A card link's test charge waits this long for its OTP or 3-D Secure check (docs/accounts.md
// "Linking by card"); one that waits past the OTP retry time (OTP_RETRY_AFTER_MS) gives way to
// the payer's next attempt.
export const CARD_LINK_TTL_MS = 15 * 60_000;
/** spec §4 card_entry: the words of the card-linking stream's progress and success events. */
export const CARD_LINKING_PROGRESS_TEXT = 'Processing card linking...';
export const CARD_LINKING_SUCCESS_TEXT = 'Card linking completed!';
/**
 * Why a card did not link an account its issuer says it does not draw on, after the catalogue's
 * 'Card linking failed' (docs/accounts.md "Linking by card").
 */
export const CARD_NOT_ON_ACCOUNT_TEXT = 'This card is not issued on this account';
/** What POST /api/payments/save-card answers once the card is on the account. */
export const CARD_SAVED_MESSAGE = 'Your card has been saved to this account.';
/** What confirm-payment says while the bank has not approved a paper mandate yet. */
export const PAPER_MANDATE_PENDING_MESSAGE =
  'Your bank has not approved the signed mandate yet. Please check again later.';
/** What confirm-payment says of a mandate at the bank's page its bank has not confirmed. */
export const BANK_PAGE_MANDATE_PENDING_MESSAGE =
  "Your bank has not confirmed the direct debit yet. Approve it on your bank's page, then check again.";
/** What confirm-payment says of an alternate-service link whose auth parameters are not in. */
export const AUTH_PARAMS_PENDING_MESSAGE =
  'Enter the details your bank asked for to finish linking this account.';
/** spec §2 success step: what a completed link answers. */
export const ACCOUNT_LINKED_MESSAGE =
  'Your account has been linked and is ready for future payments.';

/** How a payment is paid, in the payment stream's names. */
export const PAYMENT_METHODS = ['bank_transfer', 'card', 'account', 'chip_card'] as const;
export type TPaymentMethod = (typeof PAYMENT_METHODS)[number];

/**
 * The product's own sign-in page (/login, /) is a first-party client: it opens discoveries
 * without a consent. Merchant pages use their own registered clientId.
 */
export const FIRST_PARTY_CLIENT_ID = 'oya-web';
