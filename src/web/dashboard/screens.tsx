import type { ComponentType } from 'react';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import { PartBoundary } from '../ui/part-boundary';
import { preloadable } from '../ui/preloadable';

/*
 * The signed-in screens, each its own chunk, loaded when first shown: signing in loads none of
 * them, and opening Payments loads Payments alone. While a screen's code comes the page says
 * Loading…; code that does not come shows 'Try Again' in its place (PartBoundary).
 */

function ScreenLoading() {
  return (
    <main className="dash-main" aria-label="Dashboard">
      <p role="status">{DASHBOARD_TEXTS.loading}</p>
    </main>
  );
}

/** A screen whose code loads when it first renders, with its loading and failure states. */
function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>) {
  const Part = preloadable(load);
  return function LazyScreen(props: P) {
    return (
      <PartBoundary loading={<ScreenLoading />}>
        <Part {...props} />
      </PartBoundary>
    );
  };
}

export const PaymentsPage = lazyScreen(() =>
  import('./payments-page').then((module) => module.PaymentsPage),
);
export const PaymentPage = lazyScreen(() =>
  import('./payment-page').then((module) => module.PaymentPage),
);
export const ConsentsPage = lazyScreen(() =>
  import('./consents-page').then((module) => module.ConsentsPage),
);
export const ConsentPage = lazyScreen(() =>
  import('./consent-page').then((module) => module.ConsentPage),
);
export const EventsPage = lazyScreen(() =>
  import('./events-page').then((module) => module.EventsPage),
);
export const FormsPage = lazyScreen(() =>
  import('./forms-page').then((module) => module.FormsPage),
);
export const FormPage = lazyScreen(() => import('./forms-page').then((module) => module.FormPage));
export const DevelopersPage = lazyScreen(() =>
  import('./developers-page').then((module) => module.DevelopersPage),
);
export const SandboxPage = lazyScreen(() =>
  import('./sandbox-page').then((module) => module.SandboxPage),
);
export const TerminalsPage = lazyScreen(() =>
  import('./terminals-page').then((module) => module.TerminalsPage),
);
export const RoutesPage = lazyScreen(() =>
  import('./routes-page').then((module) => module.RoutesPage),
);
export const TeamPage = lazyScreen(() => import('./team-page').then((module) => module.TeamPage));
