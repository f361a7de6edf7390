import { ApiError } from '../../api/api-error';

/**
 * Why a change the passkey signs did not happen (a revocation, a pause or a resume), in words
 * for the payer.
 */
export function revocationFailure(
  failure: unknown,
  words: { act: string; done: string } = { act: 'the revocation', done: 'revoked' },
): Error {
  if (failure instanceof ApiError) return failure;
  // WebAuthn's refusal (the payer closed the prompt, or it timed out).
  if (failure instanceof Error && failure.name === 'NotAllowedError') {
    return new Error(`Your passkey did not approve ${words.act}. Nothing was changed.`);
  }
  return new Error(`The consent could not be ${words.done}. Please try again.`);
}
