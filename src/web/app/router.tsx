import { lazy, Suspense, type ComponentType } from 'react';
import { Route, Switch, useSearch } from 'wouter';
import { PAYER_CONSENTS_PATH } from '../../domain/payer-pages';
import { ConsentLoadingPage } from '../features/consent/consent-page-frame';
import { preloadable } from '../ui/preloadable';

// Each page is its own chunk: the first paint of /r/{id} loads only this shell and the Loading
// screen, and the consent page arrives while the consent itself is fetched (pages.ts preloads
// it). The budget of that first paint is checked by scripts/check-page-budget.ts.
export const ConsentRoute = preloadable((): Promise<ComponentType<{ consentId: string }>> =>
  import('./routes/consent-route').then((module) => module.ConsentRoute),
);
const LoginPage = lazy(() =>
  import('../features/auth/login-page').then((module) => ({ default: module.LoginPage })),
);
const GrantSigningSandboxPage = lazy(() =>
  import('../features/auth/grant-signing-sandbox-page').then((module) => ({
    default: module.GrantSigningSandboxPage,
  })),
);

// The signed-in payer's own consents (docs/payer-consents.md).
const PayerConsentsRoute = lazy(() =>
  import('./routes/payer-consents-route').then((module) => ({
    default: module.PayerConsentsRoute,
  })),
);

// A form on its own page (docs/forms.md): by formId alone in public mode, or one consent's.
const FormPage = lazy(() =>
  import('../features/form/form-page').then((module) => ({ default: module.FormPage })),
);

function ConsentPath({ consentId }: { consentId: string }) {
  const search = useSearch();
  return (
    <Suspense fallback={<ConsentLoadingPage search={search} />}>
      <ConsentRoute consentId={consentId} />
    </Suspense>
  );
}

/** The page's routes (spec §2 Routes); the server serves the page on exactly these paths. */
export function AppRoutes() {
  return (
    <Switch>
      <Route path="/r/:consentId">{({ consentId }) => <ConsentPath consentId={consentId} />}</Route>
      <Route path="/f/:formId">
        {({ formId }) => (
          <Suspense>
            <FormPage formId={formId} />
          </Suspense>
        )}
      </Route>
      <Route path={PAYER_CONSENTS_PATH}>
        <Suspense>
          <PayerConsentsRoute />
        </Suspense>
      </Route>
      <Route path="/login">
        <Suspense>
          <LoginPage />
        </Suspense>
      </Route>
      <Route path="/">
        <Suspense>
          <LoginPage />
        </Suspense>
      </Route>
      {/* The signed-grant primitive on its own (docs/identity.md). */}
      <Route path="/sandbox/grant-signing">
        <Suspense>
          <GrantSigningSandboxPage />
        </Suspense>
      </Route>
    </Switch>
  );
}
