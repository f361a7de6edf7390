import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { AppRoutes } from './router';

export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <AppRoutes />
    </QueryClientProvider>
  );
}
