import { startAuthentication } from '@simplewebauthn/browser';
import {
  grantSigningMessage,
  ZAuthenticationResponse,
  type TGrantPayload,
  type TSignedGrant,
} from '../../../domain/schemas/auth';
import {
  pauseSigningMessage,
  revocationSigningMessage,
  type TPauseAction,
  type TRevokeConsentRequest,
} from '../../../domain/schemas/payer-consents';
import { erasureSigningMessage, type TErasureRequest } from '../../../domain/schemas/payer-rights';
import { authApi } from '../../api/auth';
import { payerRightsApi } from '../../api/payer-rights';
import { payerConsentsApi } from '../../api/payer-consents';
import { signingChallenge } from './webauthn-digest';

/** SHA-256 of the canonical grant message: the challenge the passkey signs. */
export async function grantDigest(input: Pick<TSignedGrant, 'consentId' | 'nonce' | 'payload'>) {
  return signingChallenge(grantSigningMessage(input));
}

/**
 * Signed grants, page side: asks the server for a single-use nonce, then asks the payer's
 * passkey ('Getting your biometric approval...', spec §2 Overlays) to sign the digest of the
 * canonical payload bound to it. The server verifies the result against the same payload.
 * The payload must be plain JSON: it is sent as it was signed.
 */
export async function signGrant(consentId: string, payload: TGrantPayload): Promise<TSignedGrant> {
  // A browser without WebAuthn (an app's webview) can give no approval: answered as
  // WebAuthn answers a prompt that ended without one, so the page offers what it offers then.
  if (typeof window.PublicKeyCredential !== 'function') {
    throw new DOMException('Passkeys are not available in this browser', 'NotAllowedError');
  }
  const { nonce, options } = await authApi.grantChallenge(consentId);
  const challenge = await grantDigest({ consentId, nonce, payload });
  const response = await startAuthentication({ optionsJSON: { ...options, challenge } });
  return { consentId, nonce, payload, response: ZAuthenticationResponse.parse(response) };
}

/**
 * A revocation signed by the payer's passkey (docs/payer-consents.md): a nonce issued for
 * revoking this consent, and the passkey's signature of the revocation message bound to it.
 */
export async function signRevocation(consentId: string): Promise<TRevokeConsentRequest> {
  const { nonce, options } = await payerConsentsApi.revocationChallenge(consentId);
  const challenge = await signingChallenge(revocationSigningMessage({ consentId, nonce }));
  const response = await startAuthentication({ optionsJSON: { ...options, challenge } });
  return { nonce, response: ZAuthenticationResponse.parse(response) };
}

/**
 * A pause or resume of a consent's future payments signed by the payer's passkey
 * (docs/payer-consents.md "Pause and resume"): a nonce issued for pausing this consent, and the
 * passkey's signature of the action bound to it.
 */
export async function signPause(
  consentId: string,
  action: TPauseAction,
): Promise<TRevokeConsentRequest> {
  const { nonce, options } = await payerConsentsApi.pauseChallenge(consentId);
  const challenge = await signingChallenge(pauseSigningMessage({ consentId, nonce, action }));
  const response = await startAuthentication({ optionsJSON: { ...options, challenge } });
  return { nonce, response: ZAuthenticationResponse.parse(response) };
}

/**
 * The erasure of the payer's data signed by their passkey as they confirm it
 * (docs/payer-rights.md "Erase my data"): a nonce issued for an erasure, and the passkey's
 * signature of the erasure message bound to it.
 */
export async function signErasure(): Promise<TErasureRequest> {
  const { nonce, options } = await payerRightsApi.erasureChallenge();
  const challenge = await signingChallenge(erasureSigningMessage({ nonce }));
  const response = await startAuthentication({ optionsJSON: { ...options, challenge } });
  return { nonce, response: ZAuthenticationResponse.parse(response) };
}
