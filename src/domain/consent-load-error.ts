import { ERROR_CATALOGUE } from './errors';

/**
 * The Consent Not Found screen's text for a failed load (spec §8): a 404 or 403 shows the
 * server's own message, any other failure 'Failed to load consent data'.
 */
export function consentLoadErrorMessage(
  status: number | null,
  serverMessage: string | null,
): string {
  if ((status === 404 || status === 403) && serverMessage) return serverMessage;
  return ERROR_CATALOGUE.CONSENT_LOAD_FAILED.message;
}
