import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Route, Router, Switch } from 'wouter';
import { DASHBOARD_PATH } from '../../domain/dashboard-roles';
import '../ui/styles.css';
import './dashboard.css';
import { JoinPage } from './join-page';
import { SignedIn } from './signed-in';
import { SignInPage } from './sign-in-page';

/*
 * The merchant dashboard (docs/dashboard.md): its own entry, built apart from the payer's page
 * (vite.config.ts), so none of it is in the payer's first screen.
 */

const found = document.getElementById('root');
if (!found) throw new Error('The dashboard has no #root element');
const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, staleTime: 10_000 } },
});

createRoot(found).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <Router base={DASHBOARD_PATH}>
        <Switch>
          <Route path="/join">
            <JoinPage />
          </Route>
          <Route path="/sign-in">
            <SignInPage />
          </Route>
          <Route>
            <SignedIn />
          </Route>
        </Switch>
      </Router>
    </QueryClientProvider>
  </StrictMode>,
);
