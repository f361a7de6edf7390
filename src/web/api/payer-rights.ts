import { useQuery } from '@tanstack/react-query';
import type { TPayerRightsResponse } from '../../domain/schemas/payer-rights';
import { apiFetch } from './http';

/** The payer's requests about their data and their name's rule (docs/payer-rights.md). */
export const payerRightsQueryKey = ['payer-rights'] as const;

/** How often a request its job answers is asked after: the job answers within seconds. */
const PREPARING_POLL_MS = 2_000;

/**
 * GET /api/users/data-requests, read again while a copy is being prepared or an erasure waits
 * for its job: the erasure ends the session, and its refused read signs the page out.
 */
export function usePayerRightsQuery() {
  return useQuery({
    queryKey: payerRightsQueryKey,
    refetchInterval: (query: { state: { data?: TPayerRightsResponse } }) =>
      query.state.data?.requests.some((r) => r.kind !== 'correction' && r.status === 'received')
        ? PREPARING_POLL_MS
        : false,
    queryFn: ({ signal }) =>
      apiFetch('/api/users/data-requests', { answer: 'ZPayerRightsResponse', signal }),
  });
}

/** The requests: a copy, an erasure, a corrected name (each may need the passkey's proof). */
export const payerRightsApi = {
  askExport: () =>
    apiFetch('/api/users/data-exports', {
      method: 'POST',
      answer: 'ZPayerRightsRequestResponse',
    }),
  askErasure: () =>
    apiFetch('/api/users/data-erasures', {
      method: 'POST',
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
