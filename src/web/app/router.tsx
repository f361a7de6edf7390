import { createBrowserRouter } from 'react-router';
import { LoginPage } from '../features/auth/login-page';
import { ConsentRoute } from './routes/consent-route';

export const router = createBrowserRouter([
  { path: '/r/:consentId', element: <ConsentRoute /> },
  { path: '/login', element: <LoginPage /> },
  { path: '/', element: <LoginPage /> },
]);
