import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type {
  TPauseAction,
  TPayerConsentsResponse,
  TRevokeConsentRequest,
} from '../../domain/schemas/payer-consents';
import { apiFetch } from './http';

/** Every page of the signed-in payer's list: a revocation refreshes them all. */
export const payerConsentsQueryKey = ['payer-consents'] as const;

const consentPath = (consentId: string) => `/api/users/consents/${encodeURIComponent(consentId)}`;

/** GET /api/users/consents, page after page (docs/payer-consents.md), newest grant first. */
export function usePayerConsentsQuery(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: payerConsentsQueryKey,
    enabled,
    initialPageParam: null as string | null,
    getNextPageParam: (last: TPayerConsentsResponse) => last.nextCursor,
    queryFn: ({ pageParam, signal }) =>
      apiFetch(
        `/api/users/consents${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`,
        { answer: 'ZPayerConsentsResponse', signal },
      ),
  });
}

const receiptPath = (token: string) => `/api/consent-receipts/${encodeURIComponent(token)}`;

/** GET /api/users/consents/{id}/record: what the payer was shown, and every change since. */
export function useConsentRecordQuery(consentId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['payer-consents', consentId, 'record'],
    enabled,
    queryFn: ({ signal }) =>
      apiFetch(`${consentPath(consentId)}/record`, { answer: 'ZConsentRecordResponse', signal }),
  });
}

/** GET /api/consent-receipts/{token}: the one consent the SMS receipt's link opens. */
export function useReceiptQuery(token: string) {
  return useQuery({
    queryKey: ['consent-receipt', token],
    queryFn: ({ signal }) => apiFetch(receiptPath(token), { answer: 'ZReceiptResponse', signal }),
  });
}

/** The SMS receipt's link: the revocation with no session, the passkey alone proving it. */
export const receiptApi = {
  revocationChallenge: (token: string) =>
    apiFetch(`${receiptPath(token)}/revocation-challenges`, {
      method: 'POST',
      answer: 'ZRevocationChallengeResponse',
    }),
  revoke: (token: string, signed: TRevokeConsentRequest) =>
    apiFetch(`${receiptPath(token)}/revoke`, {
      method: 'POST',
      body: signed,
      answer: 'ZRevokeConsentResponse',
    }),
};

export const payerConsentsApi = {
  /** Confirms the consent's data sharing again: 12 months from now. */
  confirmDataSharing: (consentId: string) =>
    apiFetch(`${consentPath(consentId)}/data-sharing/confirm`, {
      method: 'POST',
      answer: 'ZRevokeConsentResponse',
    }),
  /** A nonce for one revocation signature of this consent. */
  revocationChallenge: (consentId: string) =>
    apiFetch(`${consentPath(consentId)}/revocation-challenges`, {
      method: 'POST',
      answer: 'ZRevocationChallengeResponse',
    }),
  /** A nonce for one pause or resume signature of this consent. */
  pauseChallenge: (consentId: string) =>
    apiFetch(`${consentPath(consentId)}/pause-challenges`, {
      method: 'POST',
      answer: 'ZRevocationChallengeResponse',
    }),
  /** The passkey-signed pause or resume of its future payments: the consent as it now stands. */
  changePause: (consentId: string, action: TPauseAction, signed: TRevokeConsentRequest) =>
    apiFetch(`${consentPath(consentId)}/${action}`, {
      method: 'POST',
      body: signed,
      answer: 'ZRevokeConsentResponse',
    }),
  /** The passkey-signed revocation: the consent as it now stands. */
  revoke: (consentId: string, signed: TRevokeConsentRequest) =>
    apiFetch(`${consentPath(consentId)}/revoke`, {
      method: 'POST',
      body: signed,
      answer: 'ZRevokeConsentResponse',
    }),
};
