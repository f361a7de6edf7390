import type { ComponentType, ReactNode } from 'react';
import { Route, Switch, useSearch } from 'wouter';
import { EMBED_MESSAGE } from '../../domain/embed-message-names';
import { DEBIT_NOTICE_PATH, PAYER_CONSENTS_PATH } from '../../domain/payer-pages';
import { ConsentLoadingPage, PageFailed } from '../features/consent/consent-page-frame';
import { CONSENT_ERROR_TITLE } from '../features/consent/failed-screen';
import { PartBoundary } from '../ui/part-boundary';
import { preloadable } from '../ui/preloadable';
import { postToParent } from './embed-bridge';

// Each page is its own chunk: the first paint of /r/{id} loads only this shell and the Loading
// screen, and the consent page arrives while the consent itself is fetched (pages.ts preloads
// it). The budget of that first paint is checked by scripts/check-page-budget.ts.
export const ConsentRoute = preloadable((): Promise<ComponentType<{ consentId: string }>> =>
  import('./routes/consent-route').then((module) => module.ConsentRoute),
);
const LoginPage = preloadable(() =>
  import('../features/auth/login-page').then((module) => module.LoginPage),
);
const GrantSigningSandboxPage = preloadable(() =>
  import('../features/auth/grant-signing-sandbox-page').then(
    (module) => module.GrantSigningSandboxPage,
  ),
);

// The signed-in payer's own consents (docs/payer-consents.md).
const PayerConsentsRoute = preloadable(() =>
  import('./routes/payer-consents-route').then((module) => module.PayerConsentsRoute),
);

// A debit's notice, opened from its SMS with no sign-in (docs/payer-consents.md).
const DebitNoticePage = preloadable(() =>
  import('../features/debit-notices/debit-notice-page').then((module) => module.DebitNoticePage),
);

// A form on its own page (docs/forms.md): by formId alone in public mode, or one consent's.
const FormPage = preloadable(() =>
  import('../features/form/form-page').then((module) => module.FormPage),
);

function ConsentPath({ consentId }: { consentId: string }) {
  const search = useSearch();
  return (
    <PartBoundary
      loading={<ConsentLoadingPage search={search} />}
      failed={(retry) => (
        <PageFailed
          search={search}
          consentId={consentId}
          title={CONSENT_ERROR_TITLE}
          onRetry={retry}
          onReport={(error) =>
            postToParent({ type: EMBED_MESSAGE.consentFailed, consentId, error })
          }
        />
      )}
    >
      <ConsentRoute consentId={consentId} />
    </PartBoundary>
  );
}

/** Any other page: nothing while its code loads, the failure in the page's frame if it fails. */
function Page({ title, children }: { title: string; children: ReactNode }) {
  const search = useSearch();
  return (
    <PartBoundary failed={(retry) => <PageFailed search={search} title={title} onRetry={retry} />}>
      {children}
    </PartBoundary>
  );
}

/** The page's routes (spec §2 Routes); the server serves the page on exactly these paths. */
export function AppRoutes() {
  return (
    <Switch>
      <Route path="/r/:consentId">{({ consentId }) => <ConsentPath consentId={consentId} />}</Route>
      <Route path="/f/:formId">
        {({ formId }) => (
          <Page title="Form Error">
            <FormPage formId={formId} />
          </Page>
        )}
      </Route>
      <Route path={PAYER_CONSENTS_PATH}>
        <Page title="Your consents">
          <PayerConsentsRoute />
        </Page>
      </Route>
      <Route path={`${DEBIT_NOTICE_PATH}/:token`}>
        {({ token }) => (
          <Page title="Your payment">
            <DebitNoticePage token={token} />
          </Page>
        )}
      </Route>
      <Route path="/login">
        <Page title="Sign In">
          <LoginPage />
        </Page>
      </Route>
      <Route path="/">
        <Page title="Sign In">
          <LoginPage />
        </Page>
      </Route>
      {/* The signed-grant primitive on its own (docs/identity.md). */}
      <Route path="/sandbox/grant-signing">
        <Page title="Signed grant sandbox">
          <GrantSigningSandboxPage />
        </Page>
      </Route>
    </Switch>
  );
}
