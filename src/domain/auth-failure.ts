import { ERROR_CATALOGUE, type TErrorCode } from './errors';

export type TAuthFailureAction =
  | { kind: 'reauthenticate'; statusText: 'Re-authenticating...' }
  | { kind: 'show_error'; message: string };

/**
 * What the page does when authentication fails (spec §8 Auth): an expired temporary key
 * ('Temporary key expired', the catalogue's TEMPORARY_KEY_EXPIRED) is not the payer's fault, so
 * the error is cleared and sign-in restarts; anything else shows the generic message, never the
 * raw cause. Decided by the catalogue code the server answered with (null when the failure was
 * not an answer of ours), never by the words of a message.
 */
export function authFailureAction(code: TErrorCode | null | undefined): TAuthFailureAction {
  if (code === 'TEMPORARY_KEY_EXPIRED') {
    return { kind: 'reauthenticate', statusText: 'Re-authenticating...' };
  }
  return { kind: 'show_error', message: ERROR_CATALOGUE.AUTHENTICATION_FAILED_RETRY.message };
}

/**
 * Whether signGrant ended without a passkey's approval on this device: the browser's prompt was
 * dismissed, or it holds none of the payer's passkeys (WebAuthn's NotAllowedError, AbortError).
 */
export const isApprovalNotGiven = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
