import { createBrowserRouter } from 'react-router';
import { LoginPage } from '../features/auth';
import { ConsentRoute } from './routes/consent-route';

export const router = createBrowserRouter([
  { path: '/r/:consentId', element: <ConsentRoute /> },
  { path: '/login', element: <LoginPage /> },
  { path: '/', element: <LoginPage /> },
  {
    // The signed-grant primitive on its own (docs/identity.md); loaded only when visited.
    path: '/sandbox/grant-signing',
    lazy: async () => ({
      Component: (await import('../features/auth/grant-signing-sandbox-page'))
        .GrantSigningSandboxPage,
    }),
  },
]);
