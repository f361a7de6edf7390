/**
 * The error catalogue (spec §8, plus the §4 and §5 messages a server or page raises): one stable
 * code for each failure, the HTTP status the server answers with, and the spec's words. Server
 * and page both read it, so they speak alike. ERRORS.md documents every entry; a test keeps the
 * two in step. Statuses: 400 bad input, 401 authentication, 402 a payment or card the network
 * refused (as card APIs such as Stripe answer), 403 not allowed, 404 absent, 405 a method the
 * path does not take, 406 an answer type the Accept header refuses, 408 a request that arrived
 * too slowly, 409 a state that does not allow the request yet, 500 our fault, 502 the bank, card
 * network or device answered badly, 503 the bank, card network or device could not be reached,
 * 504 it did not answer in time.
 * Messages with `{name}` placeholders are filled by `formatErrorMessage`.
 */
import { PAGE_ERRORS, PART_FAILED_MESSAGE } from './page-errors';

export const ERROR_CATALOGUE = {
  // Consent load and creation (spec §8)
  CONSENT_NOT_FOUND: { status: 404, message: 'Consent not found or has expired' },
  CONSENT_FORBIDDEN: {
    status: 403,
    message: 'Unauthorized: This clientId is not authorized to access this consent',
  },
  CONSENT_LOAD_FAILED: PAGE_ERRORS.CONSENT_LOAD_FAILED,
  MISSING_CLIENT_ID: { status: 400, message: 'clientId URL parameter is required' },
  MISSING_CLIENT_ID_PARAMETER: PAGE_ERRORS.MISSING_CLIENT_ID_PARAMETER,
  NO_CONSENT_DATA: {
    status: 404,
    message: 'No consent data available for this payment request',
  },
  CONSENT_CREATE_FAILED: { status: 500, message: 'Failed to create consent request' },

  // Requests and merchant clients (not spec messages; the server's own)
  VALIDATION_FAILED: { status: 400, message: 'The request is not valid' },
  INVALID_CLIENT_CREDENTIALS: { status: 401, message: 'Invalid client credentials' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  // A path the server serves, asked with a method it does not take there: the Allow header
  // of the answer lists the ones it takes (RFC 9110 §15.5.6).
  METHOD_NOT_ALLOWED: {
    status: 405,
    message: 'This path does not take this method; the Allow header lists the ones it takes',
  },
  // A merchant's client (docs/merchant-clients.md): rotation and the operator's calls.
  CLIENT_SECRET_CHANGED: {
    status: 409,
    message:
      "The client's secret changed while this request was made. Use the newest secret and try again.",
  },
  CLIENT_NOT_FOUND: { status: 404, message: 'No client has this client id' },
  INVALID_ADMIN_TOKEN: { status: 401, message: 'Invalid operator token' },
  // A merchant's webhook endpoint (docs/webhooks.md, "Where a webhook may go").
  WEBHOOK_URL_REFUSED: {
    status: 400,
    message:
      'url: an https URL with no user or password, whose host resolves to public addresses only',
  },
  WEBHOOK_SECRETS_OVERLAPPING: {
    status: 409,
    message:
      'This webhook has 4 earlier secrets still signing; rotate once the oldest overlap ends',
  },
  WEBHOOK_DISABLED: {
    status: 409,
    message: 'This webhook is disabled (its receiver answered 410 Gone); enable it first',
  },
  // A test event (`npm run client:trigger`, docs/webhooks.md) on a server whose money is real.
  TEST_EVENTS_SANDBOX_ONLY: {
    status: 403,
    message: 'Test events are fired only on a sandbox server (PAYMENT_PROVIDER=sandbox)',
  },
  // The merchant dashboard (docs/dashboard.md): its staff, sessions and roles.
  DASHBOARD_SIGN_IN_REQUIRED: { status: 401, message: 'Sign in to the dashboard to continue' },
  DASHBOARD_PASSKEY_REQUIRED: {
    status: 403,
    message: 'Create your passkey to finish signing in',
  },
  DASHBOARD_PASSKEY_NOT_YET_TRUSTED: {
    status: 409,
    message:
      'Added by SMS code, this passkey can refund, cancel or change settings from {changesFrom}.',
  },
  DASHBOARD_NOT_STAFF: {
    status: 403,
    message: 'This passkey is not on any merchant team. Ask an owner for an invitation.',
  },
  DASHBOARD_ROLE_FORBIDDEN: { status: 403, message: 'Your role does not allow this' },
  DASHBOARD_CSRF_REFUSED: {
    status: 403,
    message: 'This request did not come from the dashboard page. Reload it and try again.',
  },
  INVITATION_INVALID: {
    status: 404,
    message: 'This invitation link is not valid: it was used, withdrawn or has expired',
  },
  INVITATION_OTHER_PHONE: { status: 403, message: 'This invitation is for another phone number' },
  REFUND_ABOVE_STAFF_LIMIT: { status: 403, message: 'This refund is above your limit of {limit}' },
  LAST_OWNER: { status: 409, message: 'A merchant keeps at least one owner' },
  // Data a granted consent shares with its merchant (docs/merchant-clients.md, "Shared data").
  CONSENT_NOT_GRANTED: {
    status: 409,
    message: 'The payer has not granted this consent, so it shares no data',
  },
  CONSENT_REVOKED: {
    status: 409,
    message: 'The payer revoked this consent, so it shares no more data',
  },
  BVN_NOT_SHARED: { status: 404, message: 'This consent does not share BVN data' },
  SHARED_BVN_NOT_VERIFIED: { status: 404, message: 'The payer has no verified BVN to share' },
  BVN_REGISTRY_NO_RECORD: {
    status: 502,
    message: 'The BVN registry has no record of this BVN now. Try again later.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 409,
    message: 'This Idempotency-Key was already used with a different request',
  },
  REFERENCE_REUSED: {
    status: 409,
    message: 'This reference was already used for a different consent',
  },
  RATE_LIMITED: {
    status: 429,
    message: 'Too many requests. Please try again in {seconds} seconds.',
  },
  // One address holds its limit of open event streams (SSE_MAX_PER_ADDRESS): one more is refused.
  TOO_MANY_STREAMS: {
    status: 429,
    message: 'Too many event streams are open from this address. Close one and try again.',
  },
  // The shared store of the limits (REDIS_URL) did not answer: the call is refused, not let through.
  RATE_LIMITS_UNAVAILABLE: {
    status: 503,
    message: 'This service is briefly unavailable. Please try again in a moment.',
  },
  // A capability the call needs has no provider on this server (domain/capabilities.ts): a
  // consent asking for it, a sign-in without SMS, a way to pay that is off.
  CAPABILITY_OFF: {
    status: 409,
    message: 'This needs {capabilities}, which this server does not offer',
  },
  NOT_ACCEPTABLE: {
    status: 406,
    message: 'This call cannot answer in any type the Accept header allows',
  },
  REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large' },
  URL_TOO_LONG: { status: 414, message: 'The request URL is too long' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Send the request body as application/json' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are too large' },

  // Account linking (spec §8, §5)
  ACCOUNT_LINK_CREATE_FAILED: { status: 502, message: 'Failed to create account link' },
  ACCOUNT_LINK_CONFIRM_FAILED: { status: 502, message: 'Failed to confirm payment' },
  PAYMENT_NOT_YET_CONFIRMED: {
    status: 409,
    message: 'Payment not yet confirmed. Please wait and try again.',
  },
  ACCOUNT_VERIFY_FAILED: { status: 502, message: 'Failed to verify account' },
  ACCOUNT_LINKING_FAILED: { status: 500, message: PART_FAILED_MESSAGE },
  INVALID_ACCOUNT_NUMBER: {
    status: 400,
    message: 'Please enter a valid account number (minimum 10 digits)',
  },
  NO_ACCOUNT_LINK_ID: { status: 400, message: 'No account link ID found' },
  // Ours: every bank answered the search and none holds the number.
  ACCOUNT_NUMBER_NOT_FOUND: {
    status: 404,
    message: 'No bank account was found with this number. Check it and try again.',
  },
  NO_REMITA_TRANSACTION_REFERENCE: {
    status: 400,
    message: 'No Remita transaction reference found for auth submission',
  },
  NO_ACCOUNT_DETAILS_FOR_CARD_LINKING: {
    status: 400,
    message: 'No account details found for card linking',
  },
  // Linking an account (ours, docs/accounts.md): what the bank said about the account, and a
  // mandate's state that does not allow the call.
  ACCOUNT_NOT_FOUND_AT_BANK: {
    status: 400,
    message: 'No account with this account number was found at this bank',
  },
  ACCOUNT_NAME_MISMATCH: {
    status: 400,
    message: "The account name does not match the bank's name for this account number",
  },
  // Ownership by BVN (docs/identity.md "The BVN"): an account is the payer's when its holder's
  // BVN, as the bank answers it, is the payer's verified BVN.
  ACCOUNT_NOT_YOURS: { status: 403, message: 'This account is not registered to your BVN.' },
  BVN_NOT_VERIFIED: {
    status: 403,
    message:
      'Verify your BVN first: only accounts registered to your BVN can be linked or debited.',
  },
  BVN_INVALID: { status: 400, message: 'Enter your 11-digit BVN' },
  // Said only at verification, to whoever proved the code the BVN's phone received: asking for
  // a code answers the same whatever the BVN (docs/identity.md "The BVN").
  BVN_TAKEN: {
    status: 409,
    message: 'This BVN is already verified on another account. Sign in with that account instead.',
  },
  // The BVN registry sends the code itself (NIBSS's iGree): it says whether it holds the BVN and
  // where the code can go, so an unknown BVN is said at once. Not spec messages: the server's own.
  BVN_NOT_FOUND: { status: 404, message: 'We could not find this BVN. Check the 11 digits.' },
  BVN_METHOD_UNKNOWN: { status: 400, message: 'Choose where the code should go' },
  BVN_REGISTRY_UNAVAILABLE: {
    status: 502,
    message: 'The BVN registry did not answer. Please try again.',
  },
  // spec §2: an account no integration supports is 'Not supported'.
  ACCOUNT_NOT_SUPPORTED: { status: 400, message: 'Not supported' },
  ACCOUNT_LINKS_BY_CARD: {
    status: 400,
    message: 'This account is linked with a card on it. Please link it with your card.',
  },
  ACCOUNT_ALREADY_LINKED: { status: 409, message: 'This account is already linked' },
  // docs/providers/remita.md "Terms": its bank's mandate allows what a consent grants, no more.
  MANDATE_NEEDS_CONSENT: {
    status: 409,
    message: 'Link this account from the consent whose future payments it will pay.',
  },
  MANDATE_TERMS_EXCEEDED: {
    status: 409,
    message: "This account's mandate does not allow these payments. Please choose another account.",
  },
  // Linking the account a payment came from, by the payment (docs/accounts.md "Linking from a
  // payment"): a payment not the payer's, or not from this very account, proves nothing.
  PAYMENT_NOT_PROOF_OF_ACCOUNT: {
    status: 403,
    message: 'This payment does not show that this account is yours. Please link it another way.',
  },
  // Its bank authorises its mandates itself (auth parameters, a paper form): the panel does that.
  ACCOUNT_LINKS_BY_MANDATE: {
    status: 409,
    message: "This account's bank asks for its own authorisation. Please link it another way.",
  },
  ACCOUNT_LINK_IN_PROGRESS: {
    status: 409,
    message:
      'This account is already being linked. Please finish that attempt or wait for it to expire.',
  },
  ACCOUNT_LINK_EXPIRED: {
    status: 409,
    message: 'This account link has expired. Please start again.',
  },
  ACCOUNT_LINK_CANCELLED: {
    status: 409,
    message: 'This account link was cancelled. Please start again.',
  },
  AUTH_PARAMS_INCORRECT: {
    status: 400,
    message: 'Failed to verify account: the details do not match your bank. {tries} left.',
  },
  AUTH_PARAMS_LOCKED: {
    status: 409,
    message: 'Too many wrong tries. This account link was cancelled; please start again.',
  },

  // Card (spec §8, §5)
  CARD_LINK_FAILED: { status: 502, message: 'Failed to link card' },
  OTP_SUBMIT_FAILED: { status: 502, message: 'Failed to submit OTP' },
  OTP_VERIFICATION_FAILED: { status: 400, message: 'OTP verification failed' },
  THREE_DS_FAILED: { status: 402, message: '3DS authentication failed' },
  CARD_LINKING_FAILED: { status: 402, message: 'Card linking failed' },
  CARD_LINKING_CONNECTION_ERROR: {
    status: 503,
    message: 'Card linking failed due to connection error',
  },
  RECONNECT_FAILED: { status: 503, message: 'Failed to reconnect to server' },
  CARD_LINKING_RETRY_FAILED: { status: 502, message: 'Failed to retry card linking' },
  NO_STORED_CARD_FOR_RETRY: PAGE_ERRORS.NO_STORED_CARD_FOR_RETRY,
  CARD_PAYMENT_FAILED: { status: 402, message: 'Card payment failed' },
  CARD_PAYMENT_PROCESSING_FAILED: { status: 502, message: 'Failed to process card payment' },
  CARD_SAVE_FAILED: { status: 502, message: 'Failed to save card. Please try again.' },
  // Ours (docs/accounts.md "Saving a paid card"): a payment whose card cannot be saved, or was.
  CARD_NOT_SAVABLE: {
    status: 409,
    message:
      'This payment was not paid by a card that can be saved. Please link your card instead.',
  },
  CARD_ALREADY_SAVED: { status: 409, message: 'The card of this payment is already saved' },
  // Ours (docs/payments.md "Limits"): a card whose PIN or details were wrong too often here.
  CARD_BLOCKED_FOR_PAYMENT: {
    status: 403,
    message: 'Too many wrong PINs or card details for this payment. Please use another card.',
  },
  NO_PAYMENT_ID_FOR_OTP: { status: 400, message: 'No payment ID found for OTP submission' },

  // Card details, checked before encryption and again by the server after decryption (spec §5)
  CARD_NUMBER_LENGTH_INVALID: { status: 400, message: 'Card number must be 16 digits' },
  CARD_NUMBER_NOT_DIGITS: PAGE_ERRORS.CARD_NUMBER_NOT_DIGITS,
  CARD_MONTH_INVALID: { status: 400, message: 'Please select a valid month' },
  CARD_YEAR_INVALID: { status: 400, message: 'Please select a valid year' },
  CARD_EXPIRED: { status: 400, message: 'Card has expired' },
  CVV_LENGTH_INVALID: { status: 400, message: 'CVV must be 3 or 4 digits' },
  CVV_NOT_DIGITS: { status: 400, message: 'CVV must contain only digits' },
  PIN_LENGTH_INVALID: { status: 400, message: 'PIN must be 4 digits' },
  PIN_NOT_DIGITS: { status: 400, message: 'PIN must contain only digits' },

  // Account validation (spec §8)
  ACCOUNT_VALIDATION_START_FAILED: { status: 502, message: 'Failed to start account validation' },
  ACCOUNT_VALIDATION_FAILED: { status: 502, message: 'Failed to validate account' },

  // Consent and payment (spec §8, §4)
  NO_IMMEDIATE_PAYMENT: { status: 404, message: 'No immediate payment found' },
  CONSENT_GRANT_FAILED: PAGE_ERRORS.CONSENT_GRANT_FAILED,
  PAYMENT_FAILED: PAGE_ERRORS.PAYMENT_FAILED,
  DIRECT_DEBIT_FAILED: PAGE_ERRORS.DIRECT_DEBIT_FAILED,
  SOME_PAYMENTS_FAILED: PAGE_ERRORS.SOME_PAYMENTS_FAILED,
  CONSENT_REJECTED: PAGE_ERRORS.CONSENT_REJECTED,
  // 404: no charge of the caller's waits for an OTP; another caller's reads the same.
  NO_OTP_DATA: { status: 404, message: 'No OTP data available' },
  // Ours: a PIN sent for a card with no charge waiting for its PIN (requiresPIN).
  NO_PIN_CHARGE: { status: 404, message: 'No payment with this card is waiting for its PIN' },
  // Payments (ours, docs/payments.md): a payment's state that does not allow the call.
  PAYMENT_IN_PROGRESS: {
    status: 409,
    message: 'This payment is already being processed. Please wait.',
  },
  PAYMENT_ALREADY_MADE: { status: 409, message: 'This payment has already been made' },
  PAYMENT_NAME_AMBIGUOUS: {
    status: 409,
    message: 'More than one payment has this reference: name the payment by its id',
  },
  // Ours (docs/payments.md "States"): how an attempt ended, in words that say where the money is.
  CARD_BANK_NO_ANSWER: { status: 504, message: 'Your bank did not answer. Nothing was charged.' },
  TRANSFER_ACCOUNT_EXPIRED: {
    status: 409,
    message: 'This transfer account has expired. Request a new account or choose another method.',
  },
  NO_THREE_DS_CHALLENGE: {
    status: 404,
    message: 'No 3-D Secure check is waiting for this payment',
  },
  // Collecting future payments (ours, docs/payments.md "Collecting future payments").
  PAYMENT_NOT_FOUND: { status: 404, message: 'No payment of yours has this id' },
  NOT_A_FUTURE_PAYMENT: {
    status: 409,
    message: 'Only a future payment can be collected; this one is an immediate payment',
  },
  FUTURE_PAYMENT_NOT_GRANTED: {
    status: 409,
    message: 'The payer has not granted this future payment from a linked account',
  },
  FUTURE_PAYMENT_SCHEDULED: {
    status: 409,
    message: 'This payment has a fixed amount and a due date: it is collected on its due date',
  },
  COLLECTION_AMOUNT_ABOVE_CONSENTED: {
    status: 400,
    message: 'The amount is above the {consented} the payer consented to',
  },
  // A merchant's refunds (ours, docs/payments.md "Refunds").
  PAYMENT_NOT_REFUNDABLE: {
    status: 409,
    message: 'Only a paid payment can be refunded; this one has not been paid',
  },
  REFUND_EXCEEDS_REMAINING: {
    status: 409,
    message: 'The refund is more than the {remaining} of this payment that is left to refund',
  },
  REFUND_SENDER_UNKNOWN: {
    status: 409,
    message:
      'The transfer named no sending account: ask the payer for their account and refund to it',
  },
  REFUND_ACCOUNT_NOT_TAKEN: {
    status: 409,
    message: 'This payment is refunded the way it was paid: send the refund without an account',
  },
  REFUND_UNAVAILABLE_AT_PROVIDER: {
    status: 409,
    message: 'The provider that took this payment gives no refunds: refund the payer another way',
  },
  // The payer's own consents (ours, docs/payer-consents.md): revoking what they granted.
  PAYER_CONSENT_NOT_FOUND: { status: 404, message: 'No consent of yours has this id' },
  CONSENT_NOT_REVOCABLE: {
    status: 409,
    message: 'Only a granted consent can be revoked; this one is not active',
  },
  DATA_SHARING_NOT_CONFIRMABLE: {
    status: 409,
    message: 'Only an active consent that still shares data can be confirmed again',
  },
  REVOCATION_SIGNATURE_INVALID: {
    status: 400,
    message: 'The biometric approval does not match this revocation',
  },
  // The payer told before every debit, and pausing (ours, docs/payer-consents.md).
  CONSENT_NOT_PAUSABLE: {
    status: 409,
    message: 'Only an active consent’s future payments can be paused or resumed',
  },
  PAUSE_SIGNATURE_INVALID: {
    status: 400,
    message: 'The biometric approval does not match this pause',
  },
  DEBIT_NOTICE_NOT_FOUND: { status: 404, message: 'This payment link is not valid' },
  // The payer's rights over their data (ours, docs/payer-rights.md).
  ERASURE_SIGNATURE_INVALID: {
    status: 400,
    message: 'The biometric approval does not match this erasure',
  },
  NAME_NOT_CORRECTABLE: {
    status: 409,
    message: 'Your name was verified with your BVN: ask your bank to correct your BVN record',
  },
  PAYER_EXPORT_NOT_FOUND: {
    status: 404,
    message: 'This link to your data is not valid or has expired: ask for a new copy',
  },
  PAYMENT_NOT_SKIPPABLE: {
    status: 409,
    message: 'This payment can no longer be skipped: it is being collected or has ended',
  },
  COMPLAINT_NOT_FOUND: { status: 404, message: 'No complaint has this id' },
  COMPLAINT_NOT_MOVABLE: {
    status: 409,
    message: 'This complaint cannot be moved that way: it is already past that state',
  },
  CONSENT_PAUSED: {
    status: 409,
    message: 'The payer has paused this consent’s future payments; none can be collected now',
  },
  // Payment requests between payers (ours, docs/payment-requests.md); an unknown one is
  // NO_CONSENT_DATA (spec §8 'No consent data available for this payment request').
  PAYMENT_REQUEST_PAYER_NOT_FOUND: { status: 404, message: 'No payer has this userId' },
  PAYMENT_REQUEST_TO_SELF: { status: 400, message: 'You cannot request a payment from yourself' },
  PAYMENT_REQUEST_EXPIRY_INVALID: {
    status: 400,
    message: 'expiresAt must be in the future and at most 24 hours ahead',
  },
  PAYMENT_REQUEST_FORBIDDEN: {
    status: 403,
    message: 'Only the payer this payment request was sent to can answer it',
  },
  PAYMENT_REQUEST_GRANTED: {
    status: 409,
    message: 'This payment request was already granted and can no longer be declined',
  },
  PAYMENT_REQUEST_EXPIRED: {
    status: 409,
    message: 'This payment request has expired and can no longer be declined',
  },
  // Releasing what a payer's payment requests collected (ours, docs/payments.md "Releasing").
  PAYOUT_ACCOUNT_NOT_LINKED: {
    status: 404,
    message: 'No linked account of yours has this id',
  },
  SIGN_IN_REQUIRED: { status: 401, message: 'This consent requires authentication to proceed' },
  STREAM_TICKET_INVALID: {
    status: 401,
    message: 'This event stream link has expired. Please reconnect.',
  },
  CONSENT_FAILED: { status: 500, message: 'Consent failed' },

  // Authentication (spec §8, §5)
  AUTHENTICATION_FAILED_RETRY: PAGE_ERRORS.AUTHENTICATION_FAILED_RETRY,
  LOGIN_FAILED: { status: 401, message: 'Login failed' },
  AUTHENTICATION_FAILED: { status: 401, message: 'Authentication failed' },
  AUTH_TOKEN_UNAVAILABLE: { status: 401, message: 'Authentication token not available' },
  TOKEN_EXPIRED: { status: 401, message: 'Token expired - redirecting to login' },
  DISCOVERY_ID_REQUIRED: { status: 400, message: 'Discovery ID is required for authentication' },

  // Account deletion (spec §8)
  ACCOUNT_DELETE_FAILED: { status: 500, message: 'Failed to delete account' },

  // Encryption (spec §8)
  ENCRYPTION_KEY_FAILED: { status: 503, message: 'Failed to get encryption key' },
  CARD_ENCRYPTION_FAILED: { status: 500, message: 'Failed to encrypt card details' },
  FIELD_ENCRYPTION_FAILED: { status: 500, message: 'Failed to encrypt field' },
  // Ours: the server cannot open the card (a changed byte, a wrong key); the page encrypts again.
  CARD_DETAILS_UNREADABLE: {
    status: 400,
    message: 'Card details could not be read. Please enter them again.',
  },
  // Ours: the card was encrypted for a key past its grace (or one the server never made): the
  // envelope was right when made, the key changed since, as CLIENT_SECRET_CHANGED's secret does;
  // the same card encrypted for the key GET /api/encryption/public-key answers now goes through.
  ENCRYPTION_KEY_RETIRED: {
    status: 409,
    message:
      'Card details were encrypted with a key that is no longer used. Please enter them again.',
  },

  // Generic (spec §8)
  API_REQUEST_FAILED: PAGE_ERRORS.API_REQUEST_FAILED,
  API_CALL_FAILED: { status: 502, message: 'API call failed: {status}' },

  // Chip-card terminal (spec §8)
  TERMINAL_TIMEOUT: { status: 504, message: 'Transaction timed out' },
  TERMINAL_BUSY: { status: 409, message: 'Device is busy, please wait' },
  TERMINAL_INVALID_PARAMETERS: {
    status: 400,
    message:
      'Invalid transaction parameters. Please try again with a different amount or reset the device.',
  },
  TERMINAL_AMOUNT_OUT_OF_RANGE: {
    status: 400,
    message: 'Transaction amount is out of range. Please use a smaller amount.',
  },
  TERMINAL_INVALID_FORMAT: {
    status: 400,
    message: 'Invalid transaction format. Please reset the device and try again.',
  },
  TERMINAL_DEVICE_ERROR: { status: 502, message: 'Device error: {code}' },
  TERMINAL_DECLINED: { status: 402, message: 'Transaction declined by card or issuer' },
  TERMINAL_CHIP_REQUIRED: { status: 400, message: 'Please use chip card insertion' },
  TERMINAL_SDK_LOAD_FAILED: { status: 503, message: 'Failed to load QPOS SDK' },
  TERMINAL_DISCOVERY_FAILED: { status: 503, message: 'Failed to discover Bluetooth device' },
  TERMINAL_CONNECT_FAILED: { status: 503, message: 'Failed to connect to device' },
  TERMINAL_NOT_CONNECTED: { status: 409, message: 'Not connected to device' },
  TERMINAL_CHARACTERISTICS_MISSING: {
    status: 503,
    message: 'Bluetooth characteristics not properly set up',
  },
  TERMINAL_RESET_FAILED: { status: 502, message: 'Failed to reset device' },
  // Ours (docs/terminal.md): a reader the acquirer does not know, and a transaction reference
  // (rrn) already used for another purchase.
  TERMINAL_READER_UNKNOWN: {
    status: 404,
    message: 'This card reader is not registered. Check its serial number or use another reader.',
  },
  TERMINAL_RRN_REUSED: {
    status: 409,
    message: 'This transaction reference was already used. Please reset the device and try again.',
  },
  // Ours (docs/providers/paystack-terminal.md): a payment pushed to a merchant's certified terminal.
  TERMINAL_NOT_REGISTERED: {
    status: 404,
    message: 'This terminal is not registered for this merchant. Choose another terminal.',
  },
  TERMINAL_OFFLINE: {
    status: 409,
    message:
      'The terminal is offline. Check that it is on and connected, or choose another way to pay.',
  },
  // The dashboard's terminals (docs/providers/paystack-terminal.md "Registering terminals").
  TERMINALS_NOT_PUSHED: {
    status: 409,
    message: 'Card terminals are registered only where payments go to Paystack Terminal.',
  },
  TERMINAL_UNKNOWN: {
    status: 404,
    message:
      'Paystack knows no terminal with this id. Check the terminal id in Paystack’s dashboard.',
  },
  TERMINAL_TAKEN: {
    status: 409,
    message: 'This terminal is registered to another merchant.',
  },
  // The dashboard's Routes screen (docs/routing.md): a merchant's pin and pauses.
  ROUTE_PROVIDER_UNKNOWN: {
    status: 404,
    message: 'This provider does not serve this on this server.',
  },
  ROUTE_LAST_PROVIDER: {
    status: 409,
    message:
      'This is the last provider taking new work here. Resume or add another before pausing it.',
  },

  // Payer identity: phone codes, passkeys, sessions, signed grants (not spec messages; ours,
  // docs/identity.md). Expired sign-in keys say the spec's 'Temporary key expired' (§8).
  PHONE_NUMBER_INVALID: {
    status: 400,
    message: 'Enter a valid Nigerian mobile number, such as 0803 123 4567',
  },
  // Changing the sign-in number (docs/identity.md "Changing the phone number").
  PHONE_NUMBER_TAKEN: {
    status: 409,
    message: 'This number signs in to another account. Choose another number.',
  },
  PHONE_NUMBER_UNCHANGED: { status: 400, message: 'This is already your sign-in number.' },
  PHONE_CODE_FORMAT_INVALID: { status: 400, message: 'Enter the 6-digit code we sent you' },
  PHONE_CODE_RATE_LIMITED: {
    status: 429,
    message: 'Too many codes for this number. Please try again in {minutes} minutes.',
  },
  // The SMS provider refused the code's message for good. A number it will never reach: the
  // payer may check the number and ask again. Any other refusal (a key, a sender, a balance) is
  // ours: the payer may try again later. Not spec messages: the server's own.
  PHONE_NUMBER_UNREACHABLE: {
    status: 422,
    message: 'We could not send the code. Please check the number and try again.',
  },
  CODE_NOT_SENT: {
    status: 502,
    message: 'We could not send the code. Please try again later.',
  },
  PHONE_CODE_NOT_FOUND: {
    status: 400,
    message: 'No active code for this number. Please request a new code.',
  },
  PHONE_CODE_EXPIRED: { status: 400, message: 'This code has expired. Please request a new code.' },
  PHONE_CODE_INCORRECT: { status: 400, message: 'That code is not correct. {tries} left.' },
  PHONE_CODE_LOCKED: { status: 429, message: 'Too many wrong tries. Please request a new code.' },
  // A provider's verified notice could not be applied now (its provider or our database did not
  // answer): nothing was changed, and the provider sends it again.
  NOTICE_NOT_APPLIED: {
    status: 503,
    message: 'The notice could not be applied now. Nothing was changed. Please send it again.',
  },
  PAYER_NOT_FOUND: {
    status: 404,
    message: 'No account uses this number yet. Enter your name to create one.',
  },
  CLIENT_NOT_RECOGNISED: { status: 403, message: 'This clientId is not recognised' },
  TEMPORARY_KEY_EXPIRED: { status: 401, message: 'Temporary key expired' },
  TEMPORARY_KEY_USED: {
    status: 409,
    message: 'This sign-in request was already used. Please try again.',
  },
  PASSKEY_NOT_RECOGNISED: {
    status: 401,
    message: 'This passkey is not registered here. Sign in with a code instead.',
  },
  PASSKEY_REGISTRATION_FAILED: {
    status: 400,
    message: 'Your passkey could not be saved. Please try again.',
  },
  PASSKEY_ALREADY_REGISTERED: { status: 409, message: 'This passkey is already registered.' },
  PASSKEY_REQUIRED: {
    status: 409,
    message: 'Add a passkey to your account to give your biometric approval',
  },
  // A passkey added after a code alone waits 24 h before it signs money (docs/identity.md).
  PASSKEY_NOT_YET_TRUSTED: {
    status: 409,
    message:
      'Added without approval, this passkey can approve payments and mandates from {signsFrom}.',
  },
  PASSKEY_APPROVAL_INVALID: {
    status: 400,
    message: 'Your other passkey did not approve this one. Please try again.',
  },
  PASSKEY_NOT_FOUND: { status: 404, message: 'No passkey of yours has this id' },
  // A session signed in by an SMS code alone, asking for an action that needs the passkey
  // (docs/identity.md "Actions and the proof they need").
  PASSKEY_PROOF_REQUIRED: {
    status: 403,
    message: 'Confirm it is you with your passkey to do this. A code sent by SMS is not enough.',
  },
  PASSKEY_REMOVAL_CANCEL_INVALID: {
    status: 404,
    message: 'This link no longer cancels a removal: it was used, or the removal already happened.',
  },
  IDENTIFY_TO_FORBIDDEN: { status: 403, message: 'You cannot act for this merchant' },
  GRANT_SIGNATURE_INVALID: {
    status: 400,
    message: 'The biometric approval does not match this grant',
  },
  GRANT_SIGNATURE_REPLAYED: { status: 409, message: 'This biometric approval was already used' },
  // Forms (docs/forms.md): ours, but FORM_INCOMPLETE is the spec's §2 text.
  FORM_NOT_FOUND: { status: 404, message: 'Form not found' },
  FORM_SECTION_NOT_FOUND: { status: 404, message: 'This section is not part of the form' },
  FORM_INCOMPLETE: { status: 409, message: 'Complete all form sections to continue.' },
  FORM_UPDATE_TOKEN_REQUIRED: {
    status: 409,
    message: 'This form already has saved answers. Reload the page to continue where you left off.',
  },
  FORM_UPDATE_TOKEN_INVALID: {
    status: 403,
    message: 'This form was changed elsewhere. Reload the page to continue.',
  },
  FORM_RESPONSE_CLOSED: { status: 409, message: 'This form has already been submitted' },
  FORM_FILE_TYPE_NOT_ALLOWED: {
    status: 415,
    message: 'Upload an image (JPEG, PNG or WebP) or a PDF',
  },
  FORM_FILE_TOO_LARGE: { status: 413, message: 'The file is too large' },
  FORM_FILE_LIMIT_REACHED: { status: 409, message: 'Too many files were uploaded to this form' },
  FORM_FILE_LINK_INVALID: { status: 403, message: 'This file link has expired or is not valid' },
} as const satisfies Record<string, { status: number; message: string }>;

export type TErrorCode = keyof typeof ERROR_CATALOGUE;

/** Every catalogue code, for schemas: a body naming another code is not one of ours. */
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as [TErrorCode, ...TErrorCode[]];

/** A failure as the server answers it and the page parses it (its schema: schemas/api-error.ts). */
export type TApiErrorBody = { success: false; error: { code: TErrorCode; message: string } };

/** The body the server answers for a catalogue code; `message` overrides when more precise. */
export function errorBody(code: TErrorCode, message?: string): TApiErrorBody {
  return { success: false, error: { code, message: message ?? ERROR_CATALOGUE[code].message } };
}

export function errorStatus(code: TErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}

/** Whether a string from outside (a response body, a stream) names a catalogue code. */
export function isErrorCode(code: string): code is TErrorCode {
  return Object.hasOwn(ERROR_CATALOGUE, code);
}

/**
 * A catalogue message with its `{name}` placeholders filled, e.g. 'API call failed: 503'.
 * A placeholder without a value stays as written, so a missing value is visible, not blank.
 */
export function formatErrorMessage(
  code: TErrorCode,
  values: Readonly<Record<string, string | number>> = {},
): string {
  return ERROR_CATALOGUE[code].message.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}
