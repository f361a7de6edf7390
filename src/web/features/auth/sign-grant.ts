import { startAuthentication } from '@simplewebauthn/browser';
import {
  grantSigningMessage,
  ZAuthenticationResponse,
  type TGrantPayload,
  type TSignedGrant,
} from '../../../domain/schemas/auth';
import { authApi } from '../../api/auth';

const base64url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** SHA-256 of the canonical grant message: the challenge the passkey signs. */
export async function grantDigest(input: Pick<TSignedGrant, 'consentId' | 'nonce' | 'payload'>) {
  const message = new TextEncoder().encode(grantSigningMessage(input));
  return base64url(await crypto.subtle.digest('SHA-256', message));
}

/**
 * Signed grants, page side: asks the server for a single-use nonce, then asks the payer's
 * passkey ('Getting your biometric approval...', spec §2 Overlays) to sign the digest of the
 * canonical payload bound to it. The server verifies the result against the same payload.
 * The payload must be plain JSON: it is sent as it was signed.
 */
export async function signGrant(consentId: string, payload: TGrantPayload): Promise<TSignedGrant> {
  const { nonce, options } = await authApi.grantChallenge(consentId);
  const challenge = await grantDigest({ consentId, nonce, payload });
  const response = await startAuthentication({ optionsJSON: { ...options, challenge } });
  return { consentId, nonce, payload, response: ZAuthenticationResponse.parse(response) };
}
