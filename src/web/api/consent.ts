import { useQuery } from '@tanstack/react-query';
import { ZConsentReadResponse } from '../../domain/schemas/consent';
import { apiFetch } from './http';

export const consentQueryKey = (consentId: string, clientId: string) =>
  ['consent', consentId, clientId] as const;

/** GET /api/consent/{id}?clientId= (spec §7): the consent and where the page may report it. */
export function useConsentQuery(consentId: string, clientId: string | null) {
  return useQuery({
    queryKey: consentQueryKey(consentId, clientId ?? ''),
    enabled: Boolean(clientId),
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/consent/${encodeURIComponent(consentId)}?clientId=${encodeURIComponent(clientId ?? '')}`,
        { schema: ZConsentReadResponse, signal },
      ),
  });
}
