import { useQuery } from '@tanstack/react-query';
import { REQUESTS_POLL_MS } from '../../domain/payer-rights';
import type { TErasureRequest, TPayerRightsResponse } from '../../domain/schemas/payer-rights';
import { apiFetch } from './http';

/** The payer's requests about their data and their name's rule (docs/payer-rights.md). */
export const payerRightsQueryKey = ['payer-rights'] as const;

/**
 * GET /api/users/data-requests, read again while a copy is being prepared or an erasure waits
 * for its job: the erasure ends the session, and its refused read signs the page out.
 */
export function usePayerRightsQuery() {
  return useQuery({
    queryKey: payerRightsQueryKey,
    refetchInterval: (query: { state: { data?: TPayerRightsResponse } }) =>
      query.state.data?.requests.some((r) => r.kind !== 'correction' && r.status === 'received')
        ? REQUESTS_POLL_MS
        : false,
    queryFn: ({ signal }) =>
      apiFetch('/api/users/data-requests', { answer: 'ZPayerRightsResponse', signal }),
  });
}

/**
 * The requests: a copy and a corrected name (each may need the passkey's proof), and an erasure,
 * signed by the passkey over a nonce of its own.
 */
export const payerRightsApi = {
  askExport: () =>
    apiFetch('/api/users/data-exports', {
      method: 'POST',
      answer: 'ZPayerRightsRequestResponse',
    }),
  /** A nonce for one erasure signature. */
  erasureChallenge: () =>
    apiFetch('/api/users/data-erasure-challenges', {
      method: 'POST',
      answer: 'ZRevocationChallengeResponse',
    }),
  askErasure: (signed: TErasureRequest) =>
    apiFetch('/api/users/data-erasures', {
      method: 'POST',
      body: signed,
      answer: 'ZPayerRightsRequestResponse',
    }),
  correctName: (fullName: string) =>
    apiFetch('/api/users/name', {
      method: 'PUT',
      body: { fullName },
      answer: 'ZPayerRightsResponse',
    }),
};

/** GET /api/payer-exports/{token}: the copy the SMS's link opens, while it lasts (no session). */
export function usePayerExportQuery(token: string) {
  return useQuery({
    queryKey: ['payer-export', token],
    retry: false,
    queryFn: ({ signal }) =>
      apiFetch(`/api/payer-exports/${encodeURIComponent(token)}`, {
        answer: 'ZPayerExportResponse',
        signal,
      }),
  });
}
