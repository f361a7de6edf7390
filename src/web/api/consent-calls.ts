import { useQuery } from '@tanstack/react-query';
import { apiFetch } from './http';
import { consentQueryKey } from './query-keys';

export { consentQueryKey };

/**
 * The consent read's URL. The server preloads this exact URL in the page's HTML
 * (src/server/routes/pages.ts), so the browser hands this fetch the answer it already asked for:
 * any change here must be made there too.
 */
export const consentReadPath = (consentId: string, clientId: string) =>
  `/api/consent/${encodeURIComponent(consentId)}?clientId=${encodeURIComponent(clientId)}`;

/** GET /api/consent/{id}?clientId= (spec §7): the consent and where the page may report it. */
export function useConsentQuery(consentId: string, clientId: string | null) {
  return useQuery({
    queryKey: consentQueryKey(consentId, clientId ?? ''),
    enabled: Boolean(clientId),
    // A refusal the server sent in the page (src/web/app/page-answers.ts) is not asked again on
    // mount: it would answer the same. The screen's retry still asks.
    retryOnMount: false,
    queryFn: ({ signal }) =>
      apiFetch(consentReadPath(consentId, clientId ?? ''), {
        answer: 'ZConsentReadResponse',
        signal,
      }),
  });
}

export const consentApi = {
  /** POST /api/consent/{id}/decline: the signed-in payer's 'Decline' (spec §2). */
  decline: (consentId: string) =>
    apiFetch(`/api/consent/${encodeURIComponent(consentId)}/decline`, {
      method: 'POST',
      answer: 'ZDeclineResponse',
    }),
};
