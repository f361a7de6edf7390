import { startAuthentication } from '@simplewebauthn/browser';
import { ZAuthenticationResponse } from '../../../domain/schemas/auth';
import { isApiError } from '../../api/api-error';
import { authApi } from '../../api/auth';

/*
 * The step-up, page side (docs/identity.md "Actions and the proof they need"): a call refused
 * with PASSKEY_PROOF_REQUIRED (the session was signed in by an SMS code alone) asks the payer's
 * passkey to prove the session, then is tried once more.
 */

/** Proves the signed-in session with one of the payer's passkeys. */
export async function proveSession(): Promise<void> {
  const { options } = await authApi.stepUpOptions();
  const response = await startAuthentication({ optionsJSON: options });
  await authApi.stepUp({ response: ZAuthenticationResponse.parse(response) });
}

/**
 * Runs `call`; refused for want of the passkey's proof, proves the session (`proving` says when
 * the biometric prompt is up) and runs it once more.
 */
export async function withPasskeyProof<T>(
  call: () => Promise<T>,
  proving: (on: boolean) => void,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isApiError(error, 'PASSKEY_PROOF_REQUIRED')) throw error;
  }
  proving(true);
  try {
    await proveSession();
  } finally {
    proving(false);
  }
  return call();
}
