/**
 * The public face of the domain: the rules of the spec as pure functions and reducers, the
 * error catalogue, the constants, and the zod schemas of every call. Imported by server and page.
 */

// Schemas: one module per resource; each exports ZThing schemas and TThing types.
/** The consent, its payments, counterparty and data sharing (spec §3) and its read answer. */
export * from './schemas/consent';
/** Calls on /api/consent: read query, creation payload, payment request, grant and OTP (spec §7). */
export * from './schemas/consent-api';
/** The merchant's server-to-server consent creation (POST /api/v1/consents). */
export * from './schemas/merchant-api';
/** User accounts with integrations, account search, bank-validation stream, bank lookup (§3, §7). */
export * from './schemas/user-account';
/** Account links, pay-in details, auth params, alternate service and link progress (§3, §7). */
export * from './schemas/account-link';
/** Card form, encrypted card envelopes, card calls, OTP/3DS data and card-linking stream (§3, §7). */
export * from './schemas/card';
/** Transfer details, immediate payment request, payment-status stream, payment calls (§3, §7). */
export * from './schemas/payment';
/** Payer identity: login, passkeys, phone codes, sessions, signed grants (§7 auth calls). */
export * from './schemas/auth';
/** Form definitions, answers, GET /api/form and the merchant's form calls (spec §7, issue 13). */
export * from './schemas/form';
/** The sandbox network's own calls: fixtures, transfers, 3-D Secure answers (docs/sandbox.md). */
export * from './schemas/sandbox';
/** Signed card-scheme logo URLs and bank logos (spec §7). */
export * from './schemas/assets';
/** Chip-card terminal key fetch and chip purchase (spec §7). */
export * from './schemas/card-terminal';
/** Messages between the page, its embedding parent and attestation frames (spec §7 Messages). */
export * from './embed-messages';

// Constants
/** Every spec §9 constant and limit (timings in ms, amounts in kobo). */
export * from './constants';

// Errors
/** The error catalogue: code → HTTP status → the spec's message (spec §8, ERRORS.md). */
export { ERROR_CATALOGUE, type TErrorCode } from './errors';
/** The server's failure body `{ success: false, error: { code, message } }`, and its schema. */
export { ZApiErrorBody, type TApiErrorBody, errorBody } from './errors';
/** The HTTP status of a catalogue code. */
export { errorStatus } from './errors';
/** Whether a string is a catalogue code. */
export { isErrorCode } from './errors';
/** A catalogue message with its `{placeholders}` filled. */
export { formatErrorMessage } from './errors';

// Money, dates, words
/** formatNaira(kobo) → '₦1,234.56' (en-NG, always '₦'). */
export { formatNaira } from './money';
/** '5 Jan 2025' on the Lagos calendar, or null. */
export { formatPaymentDate } from './payment-date';
/** A due date, or 'As needed'. */
export { dueDateLabel } from './payment-date';
/** '1 payment' / '3 payments'. */
export { countNoun } from './plural';

// Cards
/** The brand of a card number: 'visa' | 'mastercard' | 'verve' | null (spec §5). */
export { detectCardBrand, type TCardBrand } from './card-brand';
/** Display names of card brands ('Visa', 'Mastercard', 'Verve'). */
export { CARD_BRAND_NAMES } from './card-brand';
/** The signed-url image key of a brand's logo. */
export { cardSchemeImageKey } from './card-brand';
/** Card number as typed: digits only, groups of four, at most 23 characters. */
export { formatCardNumberInput } from './card-number';
/** Card number after blur: all but the last 4 digits masked from 8 characters on. */
export { maskCardNumberInput } from './card-number';
/** The card form's card-number error, or null. */
export { validateCardNumber } from './card-number';
/** The digits of a card number (spaces stripped). */
export { cardNumberDigits } from './card-number';
/** Expiry as typed: 'MM/YY'. */
export { formatExpiryInput } from './card-expiry';
/** 'MM/YY' → { month, year: 20YY }. */
export { parseExpiryDate, type TCardExpiry } from './card-expiry';
/** CVV as typed: digits only, at most 4. */
export { sanitizeCvvInput } from './card-form';
/** Whether 'Continue to PIN' is enabled. */
export { canContinueCardForm } from './card-form';
/** Whether saving the card is forced on (any payment but an immediate one). */
export { isSaveCardForced } from './card-form';
/** The first §5 encryption message a card breaks, or null. */
export { validateCardForEncryption, type TCardToEncrypt } from './card-encryption-validation';
/** The catalogue code of the first §5 encryption rule a card breaks, or null. */
export { findCardEncryptionError } from './card-encryption-validation';
/** PIN as typed: digits only, at most 4. */
export { sanitizePinInput } from './pin-input';
/** Whether a PIN may be submitted (exactly 4 digits). */
export { canSubmitPin } from './pin-input';
/** OTP as typed: digits only, at most 6. */
export { sanitizeOtpInput } from './otp-input';
/** Whether the bank asks for a bank token instead of an OTP. */
export { isBankTokenRequest } from './otp-input';
/** Whether an OTP (6 digits) or bank token (1+ characters) may be submitted. */
export { canSubmitOtp } from './otp-input';
/** After a failed OTP: 'restart' on insufficient funds, else 'retry'. */
export { otpFailureAction } from './otp-input';
/** '[[PhoneNumber]]' → 'your phone number'. */
export { replacePhoneNumberPlaceholder } from './phone-number-placeholder';

// Accounts
/** Manual account number as typed: digits only, at most 10. */
export { sanitizeAccountNumberInput } from './account-number';
/** Whether the account search runs (exactly 10 digits). */
export { shouldSearchAccountNumber } from './account-number';
/** The manual account number's submit error, or null. */
export { accountNumberSubmitError } from './account-number';
export { isValidNuban, nubanCheckDigit } from './nuban';
/** Whether an account supports transaction service, alternate service or card. */
export { isAccountSupported } from './account-selectability';
/** Whether an account is already linked (same number and institution, linked integration). */
export { isAccountAlreadyLinked } from './account-selectability';
/** Whether an account may be chosen for linking: supported and not already linked. */
export { isAccountSelectable } from './account-selectability';
/** 'card_and_bank' | 'card' | 'bank'. */
export { accountKind, type TAccountKind } from './account-row';
/** '****1234'. */
export { maskAccountNumber } from './account-row';
/** 'Card & Bank • ****1234', 'Card • {obfuscated}' or 'Account • ****1234'. */
export { accountRowSubtitle } from './account-row';
/** 'Not supported' / 'Not authorized yet' badges of an account row. */
export { accountRowBadges, type TAccountBadge } from './account-row';
/** Whether a debit from an account is already authorized. */
export { isAccountAuthorized } from './account-row';
/** Supported accounts first, stable otherwise. */
export { sortAccountsForList } from './account-row';
/** 'Are you sure you want to delete this {type}?'. */
export { deleteAccountConfirmation } from './account-row';
/** The id a debug deletion uses (bankId, accountId or _id). */
export { accountDeletionId } from './account-row';
/** Alternate-service verification: placeholder of an input. */
export { verificationPlaceholder } from './verification-form';
/** Alternate-service verification: max length of an input (4, 6 or 50). */
export { verificationMaxLength } from './verification-form';
/** Alternate-service verification: '{label} is required', or null. */
export { verificationFieldError } from './verification-form';
/** The bank shown for a transfer, 'Rubies MFB' by default. */
export { transferBankName } from './transfer-details';
/** Whether a payment's origin offers to link the account the money came from (spec §3, §4). */
export { shouldPromptOriginLinking, type TBankAccountKey } from './origin-linking';

// Consent page
/** Whether a consent can be shown: not expired, and any immediate payment has a shield wallet. */
export { isConsentAvailable } from './consent-availability';
/** expiresAt of a consent created now: 24 h ahead. */
export { consentExpiresAt } from './consent-expiry';
/** The page's query parameters, parsed. */
export { parsePageParams, type TPageParams } from './page-params';
/** '#rrggbb' lower-case from 3 or 6 hex digits, or null. */
export { normaliseHexColour } from './page-params';
/** Embedded height: content, but at least 200 px and 35% of the window plus 20. */
export { embeddedHeight } from './embed-height';
/** The 'Share Consent' QR URL: embed=false, bg=FFFFFF, clientId. */
export { shareConsentUrl } from './share-url';
/** Whether the consent header shows. */
export { isConsentHeaderVisible } from './consent-header';
/** 'Consent Request' or 'Link Account'. */
export { consentHeaderTitle } from './consent-header';
/** '{merchant} - Consent Request'. */
export { standalonePageTitle } from './consent-header';
/** 'You have successfully granted consent to {merchant}' ('Merchant' by default). */
export { grantedMessage } from './consent-header';
/** The auth prompt's 'They would like to:' items. */
export { authPromptItems } from './auth-prompt';
/** Whether the auth prompt shows (§6). */
export { shouldShowAuthPrompt } from './auth-prompt';
/** Whether an anonymous payer may pay (§6). */
export { canPayWithoutSignIn } from './payer-permissions';
/** Which card endpoint a card call uses, or null when sign-in comes first. */
export { cardPaymentEndpoint } from './payer-permissions';
/** After an authentication failure: re-authenticate on an expired key, else the generic error. */
export { authFailureAction, type TAuthFailureAction } from './auth-failure';
/** The steps a consent needs, in order. */
export { consentSteps, type TConsentStep } from './consent-steps';
/** Step headers: number, enabled, done, 'Completed' / 'Pending'. */
export { consentStepViews, type TConsentStepView } from './consent-steps';
/** Step dots: at most 3 logos then '+N'. */
export { stepDotLogos } from './consent-steps';
/** Data categories a consent asks for. */
export { requestedDataCategories } from './data-sharing';
/** Data Sharing step chips. */
export { dataSharingChips, type TDataSharingChip } from './data-sharing';
/** 'N data point(s) being shared'. */
export { dataPointsText } from './data-sharing';
/** Schedule rows: identical recurring payments grouped with count, start and end. */
export { groupFuturePayments, type TScheduleRow } from './future-payment-schedule';
/** 'Monthly', 'Every 2 months', 'One-off'. */
export { frequencyLabel } from './frequency-label';
/** 'every month', 'every 2 months'. */
export { cadencePhrase } from './frequency-label';
/** 'Fixed' or 'Variable'. */
export { amountTypeLabel } from './frequency-label';
/** The 'What this means' text of a schedule row. */
export { scheduleExplanation } from './schedule-explanation';
/** '{merchant} would like to collect N payment(s) totalling {amount}'. */
export { futurePaymentSummary } from './future-payment-summary';
/** '+N more payment(s)'. */
export { morePaymentsText } from './future-payment-summary';
/** The consent button: OneTap ****1234, Consent, or hidden while processing. */
export { consentButton, type TConsentButton } from './consent-button';
/** Whether the consent button is disabled (§4). */
export { isConsentButtonDisabled } from './consent-button';
/** The outcome of a grant: success, or failed with page and parent messages (§4). */
export { grantOutcome, type TGrantOutcome } from './grant-outcome';

// State machines
/** Payment status reducer (§4), its states, actions, initial state and timings. */
export {
  paymentStatusReducer,
  PAYMENT_STATUS_INITIAL,
  PAYMENT_STATUS_TIMINGS,
  type TPaymentStatusState,
  type TPaymentStatusAction,
  type TPaymentPhase,
  type TPaymentStatus,
} from './payment-status';
/** Which processing steps are done at a progress value. */
export { paymentProgressSteps } from './payment-status';
/** Account-linking panel reducer (§4), its states, actions, initial state and timings. */
export {
  linkingPanelReducer,
  LINKING_PANEL_INITIAL,
  LINKING_PANEL_TIMINGS,
  type TLinkingPanelState,
  type TLinkingPanelAction,
  type TLinkingStep,
  type TLinkingPhase,
  type TLinkingAccount,
  type TLinkingSource,
  type TCardEntryView,
  type TLinkingFollowUp,
} from './linking-panel';
/** Chip-card terminal reducer (§4, §8), its states, actions and initial state. */
export {
  chipTerminalReducer,
  CHIP_TERMINAL_INITIAL,
  type TChipTerminalState,
  type TChipTerminalAction,
  type TTerminalConnection,
  type TTerminalTransaction,
} from './chip-terminal';
/** The payer's message for a chip reader error code (null for the expected DEVICE_RESET). */
export { terminalErrorMessage } from './chip-terminal';
/** The Consent Not Found text for a failed consent load (§8). */
export { consentLoadErrorMessage } from './consent-load-error';

// Forms
/** {{name}} placeholders: the names a form uses, and texts filled for the payer or a preview. */
export { formPlaceholders, fillPlaceholders, fillFormPlaceholders } from './forms';
/** The check an answer fails for its field ('This field is required', …), or null. */
export { formFieldError, isEmptyAnswer, isCalendarDate } from './forms';
/** A section's completeness and its failing fields; the form's completeness (spec §5). */
export {
  checkFormSection,
  completedFormSections,
  isFormComplete,
  type TSectionCheck,
} from './forms';
/** Answer keys that name no field of their section; the file ids a section's answers hold. */
export { unknownAnswerKeys, sectionFileIds } from './forms';
/** 'All sections completed! Ready to continue.' / 'Complete all form sections to continue.' */
export { formStepStatusText } from './forms';
/** A file's media type by its first bytes; why a file cannot go into a field; the picker hint. */
export { sniffFormFileType, FORM_FILE_SNIFF_BYTES, formFileError, formFileHint } from './forms';
