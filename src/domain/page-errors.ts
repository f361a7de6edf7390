/**
 * The catalogue's entries that the consent page's first screens name themselves (a missing
 * clientId, a rejected consent, a failed call or sign-in, before any answer has said which): the
 * catalogue (errors.ts) holds them in their places. The first screen imports these few, not the
 * whole catalogue, which loads with the first call (docs/first-screen.md).
 */
export const PAGE_ERRORS = {
  MISSING_CLIENT_ID_PARAMETER: { status: 400, message: 'Missing clientId parameter' },
  CONSENT_REJECTED: { status: 409, message: 'Consent was rejected by user' },
  AUTHENTICATION_FAILED_RETRY: { status: 401, message: 'Authentication failed. Please try again.' },
  API_REQUEST_FAILED: { status: 500, message: 'API request failed' },
  CONSENT_LOAD_FAILED: { status: 500, message: 'Failed to load consent data' },
  CONSENT_GRANT_FAILED: { status: 500, message: 'Failed to grant consent' },
  SOME_PAYMENTS_FAILED: { status: 402, message: 'Some payments failed. Please try again.' },
  DIRECT_DEBIT_FAILED: { status: 402, message: 'Direct debit payment failed' },
  CARD_NUMBER_NOT_DIGITS: { status: 400, message: 'Card number must contain only digits' },
  PAYMENT_FAILED: { status: 402, message: 'Payment failed' },
  NO_STORED_CARD_FOR_RETRY: { status: 400, message: 'No stored card details found for retry' },
} as const satisfies Record<string, { status: number; message: string }>;

/**
 * What a part of the page says when its code did not come or it could not be drawn (PartBoundary):
 * spec §2's generic failure text (the 'Account Linking Failed' screen's own fallback), with 'Try
 * Again'.
 */
export const PART_FAILED_MESSAGE = 'Something went wrong. Please try again.';
