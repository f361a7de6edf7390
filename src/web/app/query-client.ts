import { QueryClient } from '@tanstack/react-query';
import { CACHE_TTL_MS } from '../../domain/constants';
import { ApiError } from '../api/api-error';

/**
 * The page's query client, with the same defaults in the browser and on the server that renders
 * the consent's first screen (src/web/server-render.tsx): both must read the seeded answers alike.
 */
export function newQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: CACHE_TTL_MS.default,
        // A 4xx will not change by asking again; a network failure might.
        retry: (failures, error) =>
          failures < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
        refetchOnWindowFocus: false,
      },
    },
  });
}
