import { useQuery } from '@tanstack/react-query';
import { apiFetch } from './http';

/** The payer's requests about their data and their name's rule (docs/payer-rights.md). */
export const payerRightsQueryKey = ['payer-rights'] as const;

/** GET /api/users/data-requests. */
export function usePayerRightsQuery() {
  return useQuery({
    queryKey: payerRightsQueryKey,
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
