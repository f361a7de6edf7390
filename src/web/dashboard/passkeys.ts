import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
} from '@simplewebauthn/browser';
import {
  ZDashboardOk,
  ZDashboardPasskeyOptionsResponse,
  ZDashboardSessionResponse,
  ZSignInOptionsResponse,
} from '../../domain/schemas/dashboard';
import { ZPasskeyRegisterResponse } from '../../domain/schemas/auth';
import { dashboardCall, setCsrfToken } from './api';

/*
 * The dashboard's passkeys: the payers' own (docs/identity.md), made in a session an SMS code
 * opened and used to sign in. The browser's sheet is @simplewebauthn/browser's, as on /login.
 */

/**
 * Makes this device's passkey for the session an SMS code just opened (an invitation accepted, a
 * recovery): its writes carry that session's CSRF token, read first.
 */
export async function makePasskey(): Promise<void> {
  const session = await dashboardCall('/session', ZDashboardSessionResponse);
  setCsrfToken(session.csrfToken);
  const { options } = await dashboardCall('/passkeys/options', ZDashboardPasskeyOptionsResponse, {
    method: 'POST',
  });
  const response = await startRegistration({
    optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  await dashboardCall('/passkeys', ZPasskeyRegisterResponse, {
    method: 'POST',
    body: { response },
  });
}

/** Signs in with one of this device's passkeys. */
export async function signIn(): Promise<void> {
  const { options } = await dashboardCall('/sign-in/options', ZSignInOptionsResponse, {
    method: 'POST',
  });
  const response = await startAuthentication({ optionsJSON: options });
  await dashboardCall('/sign-in', ZDashboardOk, { method: 'POST', body: { response } });
}
