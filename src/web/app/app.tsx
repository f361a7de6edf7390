import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { CACHE_TTL_MS } from '../../domain/constants';
import { ApiError } from '../api/api-error';
import { AppRoutes } from './router';

const queryClient = new QueryClient({
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

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <AppRoutes />
    </QueryClientProvider>
  );
}
