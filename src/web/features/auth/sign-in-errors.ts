import { WebAuthnError } from '@simplewebauthn/browser';
import { authFailureAction } from '../../../domain/auth-failure';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import { ApiError, isApiError } from '../../api/api-error';

/** spec §8: an expired temporary key restarts sign-in ('Re-authenticating...'), by its code. */
export function isTemporaryKeyExpired(error: unknown): boolean {
  return authFailureAction(isApiError(error) ? error.code : null).kind === 'reauthenticate';
}

/** The payer cancelled the browser's passkey sheet, or no passkey was there to pick. */
export function isCeremonyCancelled(error: unknown): boolean {
  const cause = error instanceof WebAuthnError ? error.cause : error;
  return (
    cause instanceof Error && (cause.name === 'NotAllowedError' || cause.name === 'AbortError')
  );
}

/**
 * What the payer reads when sign-in or passkey creation fails: our server's own message (it is
 * already the catalogue's words), otherwise the spec's generic 'Authentication failed. Please try
 * again.' (§8), never a browser's raw text.
 */
export function signInErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status > 0) return error.message;
  if (
    error instanceof WebAuthnError &&
    error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED'
  ) {
    return ERROR_CATALOGUE.PASSKEY_ALREADY_REGISTERED.message;
  }
  return ERROR_CATALOGUE.AUTHENTICATION_FAILED_RETRY.message;
}
