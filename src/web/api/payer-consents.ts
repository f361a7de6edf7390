import { useInfiniteQuery } from '@tanstack/react-query';
import type {
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

export const payerConsentsApi = {
  /** A nonce for one revocation signature of this consent. */
  revocationChallenge: (consentId: string) =>
    apiFetch(`${consentPath(consentId)}/revocation-challenges`, {
      method: 'POST',
      answer: 'ZRevocationChallengeResponse',
    }),
  /** The passkey-signed revocation: the consent as it now stands. */
  revoke: (consentId: string, signed: TRevokeConsentRequest) =>
    apiFetch(`${consentPath(consentId)}/revoke`, {
      method: 'POST',
      body: signed,
      answer: 'ZRevokeConsentResponse',
    }),
};
