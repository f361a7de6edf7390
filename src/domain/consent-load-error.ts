import { PAGE_ERRORS } from './page-errors';

/**
 * The Consent Not Found screen's text for a failed load (spec §8): a 404 or 403 shows the
 * server's own message, any other failure 'Failed to load consent data'.
 */
export function consentLoadErrorMessage(
  status: number | null,
  serverMessage: string | null,
): string {
  if ((status === 404 || status === 403) && serverMessage) return serverMessage;
  return PAGE_ERRORS.CONSENT_LOAD_FAILED.message;
}

/**
 * Whether reading the consent again may succeed: a server that could not be reached, was busy or
 * failed may answer next time; a refusal (an unknown or expired consent, a clientId it was not made
 * for) answers the same, so the screen offers a way back, not a retry.
 */
export function isConsentLoadRetryable(status: number | null): boolean {
  // null or 0: no answer came (the page's calls say 0 when the server was not reached).
  return !status || status === 408 || status === 429 || status >= 500;
}
