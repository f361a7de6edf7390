import { startAuthentication } from '@simplewebauthn/browser';
import { ZAuthenticationResponse } from '../../../domain/schemas/auth';
import {
  revocationSigningMessage,
  type TRevokeConsentRequest,
} from '../../../domain/schemas/payer-consents';
import { receiptApi } from '../../api/payer-consents';
import { signingChallenge } from './webauthn-digest';

/**
 * A revocation signed by the payer's passkey from the SMS receipt's link (docs/payer-consents.md
 * "The receipt"): the nonce is asked for by the receipt's token, with no session, and the passkey
 * signs the same revocation message as on /consents.
 */
export async function signReceiptRevocation(
  token: string,
  consentId: string,
): Promise<TRevokeConsentRequest> {
  const { nonce, options } = await receiptApi.revocationChallenge(token);
  const challenge = await signingChallenge(revocationSigningMessage({ consentId, nonce }));
  const response = await startAuthentication({ optionsJSON: { ...options, challenge } });
  return { nonce, response: ZAuthenticationResponse.parse(response) };
}
