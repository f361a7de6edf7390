import { useQuery } from '@tanstack/react-query';
import { apiFetch } from './http';

/*
 * The debit notice's link (docs/payer-consents.md "Told before every debit"): the one debit its
 * token names, and its skip, with no session.
 */

const noticePath = (token: string) => `/api/debit-notices/${encodeURIComponent(token)}`;

export const debitNoticeQueryKey = (token: string) => ['debit-notice', token] as const;

/** GET /api/debit-notices/{token}: the debit, and where it stands. */
export function useDebitNoticeQuery(token: string) {
  return useQuery({
    queryKey: debitNoticeQueryKey(token),
    queryFn: ({ signal }) =>
      apiFetch(noticePath(token), { answer: 'ZDebitNoticeResponse', signal }),
  });
}

/** POST …/skip: the debit as it now stands (skipped). */
export const debitNoticeApi = {
  skip: (token: string) =>
    apiFetch(`${noticePath(token)}/skip`, { method: 'POST', answer: 'ZDebitNoticeResponse' }),
};
