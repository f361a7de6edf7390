import { ApiError } from '../../api/api-error';

/** Why a revocation did not happen, in words for the payer. */
export function revocationFailure(failure: unknown): Error {
  if (failure instanceof ApiError) return failure;
  // WebAuthn's refusal (the payer closed the prompt, or it timed out).
  if (failure instanceof Error && failure.name === 'NotAllowedError') {
    return new Error('Your passkey did not approve the revocation. Nothing was changed.');
  }
  return new Error('The consent could not be revoked. Please try again.');
}
