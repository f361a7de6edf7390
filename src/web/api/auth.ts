import { useQuery } from '@tanstack/react-query';
import { CACHE_TTL_MS } from '../../domain/constants';
import {
  ZAuthMeResponse,
  ZDiscoveryResponse,
  ZGrantChallengeResponse,
  ZGrantSignatureResponse,
  ZLoginResponse,
  ZOkResponse,
  ZPasskeyRegisterResponse,
  ZPhoneCodeResponse,
  ZPublicConfigResponse,
  ZWebAuthnOptionsResponse,
  type TDiscoveryRequest,
  type TLoginRequest,
  type TRegistrationResponse,
  type TSignedGrant,
} from '../../domain/schemas/auth';
import { apiFetch } from './http';

/** Calls of payer identity (docs/identity.md), typed by the domain schemas. */
export const authApi = {
  openDiscovery: (body: TDiscoveryRequest) =>
    apiFetch('/api/auth/discovery', { method: 'POST', body, schema: ZDiscoveryResponse }),
  signInOptions: () =>
    apiFetch('/api/auth/passkeys/sign-in-options', {
      method: 'POST',
      schema: ZWebAuthnOptionsResponse,
    }),
  login: (body: TLoginRequest) =>
    apiFetch('/api/auth/login', { method: 'POST', body, schema: ZLoginResponse }),
  sendPhoneCode: (phone: string) =>
    apiFetch('/api/auth/phone-codes', {
      method: 'POST',
      body: { phone },
      schema: ZPhoneCodeResponse,
    }),
  registrationOptions: (token?: string) =>
    apiFetch('/api/auth/passkeys/registration-options', {
      method: 'POST',
      schema: ZWebAuthnOptionsResponse,
      token,
    }),
  registerPasskey: (response: TRegistrationResponse, token?: string) =>
    apiFetch('/api/auth/passkeys', {
      method: 'POST',
      body: { response },
      schema: ZPasskeyRegisterResponse,
      token,
    }),
  logout: () => apiFetch('/api/auth/logout', { method: 'POST', schema: ZOkResponse }),
  grantChallenge: (consentId: string) =>
    apiFetch('/api/auth/grant-challenges', {
      method: 'POST',
      body: { consentId },
      schema: ZGrantChallengeResponse,
    }),
  verifyGrantSignature: (signed: TSignedGrant) =>
    apiFetch('/api/auth/grant-signatures/verify', {
      method: 'POST',
      body: signed,
      schema: ZGrantSignatureResponse,
    }),
};

/** The product name and other public settings; they change only with a deploy. */
export function usePublicConfig() {
  return useQuery({
    queryKey: ['public-config'],
    queryFn: ({ signal }) =>
      apiFetch('/api/public-config', { schema: ZPublicConfigResponse, signal }),
    staleTime: Infinity,
  });
}

export const meQueryKey = (token: string | null) => ['auth', 'me', token] as const;

/** GET /api/auth/me; spec §7 caches it 5 min. An expired token takes the §8 path in apiFetch. */
export function useMeQuery(token: string | null) {
  return useQuery({
    queryKey: meQueryKey(token),
    enabled: Boolean(token),
    staleTime: CACHE_TTL_MS.authMe,
    queryFn: ({ signal }) => apiFetch('/api/auth/me', { schema: ZAuthMeResponse, signal }),
  });
}
