import { useQuery } from '@tanstack/react-query';
import { CACHE_TTL_MS } from '../../domain/constants';
import type {
  TDiscoveryRequest,
  TLoginRequest,
  TPasskeyRegisterRequest,
  TSignedGrant,
  TStepUpRequest,
} from '../../domain/schemas/auth';
import { apiFetch } from './http';
import { PUBLIC_CONFIG_QUERY_KEY } from './query-keys';

/** Calls of payer identity (docs/identity.md), typed by the domain schemas. */
export const authApi = {
  openDiscovery: (body: TDiscoveryRequest) =>
    apiFetch('/api/auth/discovery', { method: 'POST', body, answer: 'ZDiscoveryResponse' }),
  signInOptions: () =>
    apiFetch('/api/auth/passkeys/sign-in-options', {
      method: 'POST',
      answer: 'ZWebAuthnOptionsResponse',
    }),
  login: (body: TLoginRequest) =>
    apiFetch('/api/auth/login', { method: 'POST', body, answer: 'ZLoginResponse' }),
  sendPhoneCode: (phone: string) =>
    apiFetch('/api/auth/phone-codes', {
      method: 'POST',
      body: { phone },
      answer: 'ZPhoneCodeResponse',
    }),
  registrationOptions: (token?: string) =>
    apiFetch('/api/auth/passkeys/registration-options', {
      method: 'POST',
      answer: 'ZPasskeyRegistrationOptionsResponse',
      token,
    }),
  /** The new passkey, with an existing one's approval when the payer gave it. */
  registerPasskey: (body: TPasskeyRegisterRequest, token?: string) =>
    apiFetch('/api/auth/passkeys', {
      method: 'POST',
      body,
      answer: 'ZPasskeyRegisterResponse',
      token,
    }),
  /** Removed at once (200), or, from a session signed in by code alone, scheduled (202). */
  removePasskey: (passkeyId: string) =>
    apiFetch(`/api/auth/passkeys/${encodeURIComponent(passkeyId)}`, {
      method: 'DELETE',
      answer: 'ZPasskeyRemovalAnswer',
    }),
  /** A scheduled removal cancelled by a session a passkey proved. */
  cancelRemoval: (passkeyId: string) =>
    apiFetch(`/api/auth/passkeys/${encodeURIComponent(passkeyId)}/removal`, {
      method: 'DELETE',
      answer: 'ZOkResponse',
    }),
  /** A scheduled removal cancelled with the SMS's link (no session needed). */
  cancelRemovalByToken: (token: string) =>
    apiFetch('/api/auth/passkeys/removals/cancel', {
      method: 'POST',
      body: { token },
      answer: 'ZPasskeyRemovalCancelResponse',
    }),
  stepUpOptions: () =>
    apiFetch('/api/auth/step-up/options', { method: 'POST', answer: 'ZWebAuthnOptionsResponse' }),
  stepUp: (body: TStepUpRequest) =>
    apiFetch('/api/auth/step-up', { method: 'POST', body, answer: 'ZStepUpResponse' }),
  logout: () => apiFetch('/api/auth/logout', { method: 'POST', answer: 'ZOkResponse' }),
  grantChallenge: (consentId: string) =>
    apiFetch('/api/auth/grant-challenges', {
      method: 'POST',
      body: { consentId },
      answer: 'ZGrantChallengeResponse',
    }),
  verifyGrantSignature: (signed: TSignedGrant) =>
    apiFetch('/api/auth/grant-signatures/verify', {
      method: 'POST',
      body: signed,
      answer: 'ZGrantSignatureResponse',
    }),
};

/** The product name and other public settings; they change only with a deploy. */
export function usePublicConfig() {
  return useQuery({
    queryKey: PUBLIC_CONFIG_QUERY_KEY,
    queryFn: ({ signal }) =>
      apiFetch('/api/public-config', { answer: 'ZPublicConfigResponse', signal }),
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
    queryFn: ({ signal }) => apiFetch('/api/auth/me', { answer: 'ZAuthMeResponse', signal }),
  });
}

export const passkeysQueryKey = ['auth', 'passkeys'] as const;

/** GET /api/auth/passkeys: the signed-in payer's passkeys ('Devices' on their account page). */
export function usePasskeysQuery(enabled: boolean) {
  return useQuery({
    queryKey: passkeysQueryKey,
    enabled,
    queryFn: ({ signal }) =>
      apiFetch('/api/auth/passkeys', { answer: 'ZPasskeysResponse', signal }),
  });
}
