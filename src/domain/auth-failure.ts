import { ERROR_CATALOGUE } from './errors';

export type TAuthFailureAction =
  | { kind: 'reauthenticate'; statusText: 'Re-authenticating...' }
  | { kind: 'show_error'; message: string };

/**
 * What the page does when authentication fails (spec §8 Auth): an expired temporary key is not
 * the payer's fault, so the error is cleared and sign-in restarts; anything else shows the
 * generic message, never the raw cause.
 */
export function authFailureAction(cause: string | null | undefined): TAuthFailureAction {
  if (/temporary key expired/i.test(cause ?? '')) {
    return { kind: 'reauthenticate', statusText: 'Re-authenticating...' };
  }
  return { kind: 'show_error', message: ERROR_CATALOGUE.AUTHENTICATION_FAILED_RETRY.message };
}
