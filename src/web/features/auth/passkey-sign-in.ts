import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
} from '@simplewebauthn/browser';
import {
  passkeyApprovalMessage,
  WEBAUTHN_TIMEOUT_MS,
  ZAuthenticationResponse,
  ZRegistrationResponse,
  type TLoginRequest,
  type TLoginResponse,
  type TPasskeyApprovalOptions,
  type TPasskeyRegisterResponse,
  type TRegistrationResponse,
} from '../../../domain/schemas/auth';
import { authApi } from '../../api/auth';
import { ApiError } from '../../api/api-error';
import { clearSignIn } from '../../api/session';
import { isTemporaryKeyExpired } from './sign-in-errors';
import type { TSignInContext } from './sign-in-context';
import { signingChallenge } from './webauthn-digest';

/**
 * Opens the discovery a login must name (spec §5). spec §8: a 404 on attestation session
 * creation clears the stored user, token and attestation data.
 */
export async function openDiscovery(context: TSignInContext): Promise<string> {
  try {
    const { discoveryId } = await authApi.openDiscovery({
      clientId: context.clientId,
      consentId: context.consentId,
      authAppId: context.authAppId,
    });
    return discoveryId;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) clearSignIn();
    throw error;
  }
}

type TPasskeySignInOptions = {
  /** Conditional mediation: the browser offers our passkeys in the username field's autofill. */
  useBrowserAutofill?: boolean;
  /** 'Re-authenticating...' when an expired temporary key restarts the sign-in (spec §8). */
  onStatus?: (status: string) => void;
};

/**
 * Passkey sign-in (the spec's "biometric login"): a discovery, a challenge, the browser's
 * passkey sheet, then the login call. An expired temporary key restarts it once.
 */
export async function signInWithPasskey(
  context: TSignInContext,
  options: TPasskeySignInOptions = {},
): Promise<TLoginResponse> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      const discoveryId = await openDiscovery(context);
      const { options: requestOptions } = await authApi.signInOptions();
      const response = await startAuthentication({
        // The server made these options with @simplewebauthn/server; the schema checked them.
        optionsJSON: requestOptions,
        useBrowserAutofill: options.useBrowserAutofill ?? false,
      });
      return await authApi.login({
        method: 'passkey',
        clientId: context.clientId,
        discoveryId,
        authAppId: context.authAppId,
        // Parsed, not cast: what leaves the page is what the server's schema expects.
        response: ZAuthenticationResponse.parse(response),
      });
    } catch (error) {
      if (attempt === 0 && isTemporaryKeyExpired(error)) {
        options.onStatus?.('Re-authenticating...');
        continue;
      }
      throw error;
    }
  }
}

/** The phone-code login (fallback for a device with no passkey, and sign-up). */
export async function signInWithCode(
  context: TSignInContext,
  input: { phone: string; code: string; fullName?: string | undefined },
): Promise<TLoginResponse> {
  const login = async (): Promise<TLoginResponse> => {
    const discoveryId = await openDiscovery(context);
    const body: TLoginRequest = {
      method: 'phone-code',
      clientId: context.clientId,
      discoveryId,
      authAppId: context.authAppId,
      phone: input.phone,
      code: input.code,
      ...(input.fullName ? { fullName: input.fullName } : {}),
    };
    return authApi.login(body);
  };
  try {
    return await login();
  } catch (error) {
    // The code is still good: only the session key expired, so one fresh discovery suffices.
    if (isTemporaryKeyExpired(error)) return login();
    throw error;
  }
}

/** A passkey created on this device, not yet kept by the server (savePasskey). */
export type TCreatedPasskey = {
  token: string;
  registrationChallenge: string;
  response: TRegistrationResponse;
  /** Whether it needs an existing passkey's approval, and which of them may give it. */
  approval: TPasskeyApprovalOptions;
};

/** Creates one more passkey on this device for the payer whose token this is. */
export async function createPasskey(token: string): Promise<TCreatedPasskey> {
  const { options, approval } = await authApi.registrationOptions(token);
  const response = await startRegistration({
    optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  return {
    token,
    registrationChallenge: options.challenge,
    response: ZRegistrationResponse.parse(response),
    approval,
  };
}

/**
 * Keeps a created passkey. With `approve`, one of the payer's trusted passkeys (on this device or,
 * through the browser, on their phone) first signs the approval of exactly this registration;
 * without it, the server keeps it waiting 24 h before it may approve payments
 * (docs/identity.md "When a passkey is trusted").
 */
export async function savePasskey(
  created: TCreatedPasskey,
  approve: boolean,
): Promise<TPasskeyRegisterResponse> {
  if (!approve) return authApi.registerPasskey({ response: created.response }, created.token);
  const challenge = await signingChallenge(
    passkeyApprovalMessage({
      registrationChallenge: created.registrationChallenge,
      credentialId: created.response.id,
    }),
  );
  const approval = await startAuthentication({
    optionsJSON: {
      challenge,
      rpId: created.approval.rpId,
      allowCredentials: created.approval.allowCredentials,
      userVerification: 'required',
      timeout: WEBAUTHN_TIMEOUT_MS,
    },
  });
  return authApi.registerPasskey(
    { response: created.response, approval: ZAuthenticationResponse.parse(approval) },
    created.token,
  );
}
