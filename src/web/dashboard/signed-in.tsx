import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { isApiError } from '../api/api-error';
import {
  mayDo,
  ROLE_LABELS,
  SCREEN_ACTIONS,
  type TDashboardScreen,
} from '../../domain/dashboard-roles';
import { DASHBOARD_TEXTS } from '../../domain/dashboard-texts';
import { ERROR_CATALOGUE } from '../../domain/errors';
import { ZDashboardOk, type TDashboardSession } from '../../domain/schemas/dashboard';
import { Button } from '../ui/button';
import { FormError } from '../ui/form-error';
import { formatDateTime } from '../ui/format-date';
import { dashboardCall, messageOf } from './api';
import { makePasskey } from './passkeys';
import { dashboardQueries } from './queries';
import { Screen } from './screen';
import {
  ConsentPage,
  ConsentsPage,
  DevelopersPage,
  EventsPage,
  FormPage,
  FormsPage,
  PaymentPage,
  PaymentsPage,
  RoutesPage,
  SandboxPage,
  TeamPage,
  TerminalsPage,
} from './screens';

/** The screens of a signed-in staff member, with the bar that names them and their merchant. */
export function SignedIn() {
  const [, navigate] = useLocation();
  const session = useQuery(dashboardQueries.session());
  const signedOut = isApiError(session.error, 'DASHBOARD_SIGN_IN_REQUIRED');
  useEffect(() => {
    if (signedOut) navigate('/sign-in');
  }, [signedOut, navigate]);
  if (!session.data) {
    return (
      <main className="dash-main" aria-label="Dashboard">
        <p role="status">{DASHBOARD_TEXTS.loading}</p>
      </main>
    );
  }
  if (session.data.method === 'phone-code')
    return <MakePasskey onDone={() => void session.refetch()} />;
  return <Shell session={session.data} />;
}

/** A session an SMS code opened (an invitation, a recovery) makes its passkey first. */
function MakePasskey({ onDone }: { onDone: () => void }) {
  const make = useMutation({ mutationFn: makePasskey, onSuccess: onDone });
  return (
    <div className="dash-page">
      <Screen title={DASHBOARD_TEXTS.recoveryTitle}>
        <section className="dash-card">
          <p>{ERROR_CATALOGUE.DASHBOARD_PASSKEY_REQUIRED.message}</p>
          <Button disabled={make.isPending} onClick={() => make.mutate()}>
            {DASHBOARD_TEXTS.recoveryTitle}
          </Button>
          <FormError message={make.error ? messageOf(make.error) : null} />
        </section>
      </Screen>
    </div>
  );
}

/** The bar and the screens of a staff member whose session has its passkey. */
export function Shell({ session }: { session: TDashboardSession }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const signOut = useMutation({
    mutationFn: () => dashboardCall('/sign-out', ZDashboardOk, { method: 'POST' }),
    onSuccess: () => {
      queryClient.clear();
      navigate('/sign-in');
    },
  });
  const may = (screen: TDashboardScreen) => mayDo(session.role, SCREEN_ACTIONS[screen]);
  const allowed = (screen: TDashboardScreen, page: ReactNode, title: string) =>
    may(screen) ? page : <NotForYourRole title={title} session={session} />;
  return (
    <div className="dash-app">
      <header className="dash-bar">
        <div className="dash-id">
          <div>
            <p className="dash-merchant">{session.merchant.name}</p>
            <p className="dash-who">
              {session.fullName} · {ROLE_LABELS[session.role]}
            </p>
          </div>
          <Button variant="link" className="dash-sign-out" onClick={() => signOut.mutate()}>
            {DASHBOARD_TEXTS.signOut}
          </Button>
        </div>
        <nav aria-label="Dashboard">
          <Link href="/">{DASHBOARD_TEXTS.nav.payments}</Link>
          {may('consents') && <Link href="/consents">{DASHBOARD_TEXTS.nav.consents}</Link>}
          {may('forms') && <Link href="/forms">{DASHBOARD_TEXTS.formsNav}</Link>}
          {may('events') && <Link href="/events">{DASHBOARD_TEXTS.eventsTitle}</Link>}
          {may('developers') && <Link href="/developers">{DASHBOARD_TEXTS.nav.developers}</Link>}
          {may('terminals') && <Link href="/terminals">{DASHBOARD_TEXTS.nav.terminals}</Link>}
          {may('routes') && <Link href="/routes">{DASHBOARD_TEXTS.nav.routes}</Link>}
          {may('team') && <Link href="/team">{DASHBOARD_TEXTS.nav.team}</Link>}
          {session.sandbox && may('sandbox') && (
            <Link href="/sandbox">{DASHBOARD_TEXTS.nav.sandbox}</Link>
          )}
        </nav>
      </header>
      {session.changesFrom && (
        <p className="dash-notice" role="status">
          {DASHBOARD_TEXTS.passkeyWaiting(formatDateTime(session.changesFrom))}
        </p>
      )}
      <Switch>
        <Route path="/">
          <PaymentsPage />
        </Route>
        <Route path="/payments/:paymentId">
          {({ paymentId }) => <PaymentPage paymentId={paymentId} session={session} />}
        </Route>
        <Route path="/consents">
          {allowed('consents', <ConsentsPage />, DASHBOARD_TEXTS.consentsTitle)}
        </Route>
        <Route path="/consents/:consentId">
          {({ consentId }) =>
            allowed(
              'consents',
              <ConsentPage consentId={consentId} session={session} />,
              DASHBOARD_TEXTS.consentTitle,
            )
          }
        </Route>
        <Route path="/forms">{allowed('forms', <FormsPage />, DASHBOARD_TEXTS.formsTitle)}</Route>
        <Route path="/forms/:formId">
          {({ formId }) =>
            allowed('forms', <FormPage formId={formId} />, DASHBOARD_TEXTS.formsTitle)
          }
        </Route>
        <Route path="/events">
          {allowed('events', <EventsPage />, DASHBOARD_TEXTS.eventsTitle)}
        </Route>
        <Route path="/developers">
          {allowed('developers', <DevelopersPage />, DASHBOARD_TEXTS.developersTitle)}
        </Route>
        <Route path="/terminals">
          {allowed('terminals', <TerminalsPage />, DASHBOARD_TEXTS.terminalsTitle)}
        </Route>
        <Route path="/routes">
          {allowed('routes', <RoutesPage session={session} />, DASHBOARD_TEXTS.nav.routes)}
        </Route>
        <Route path="/team">{allowed('team', <TeamPage />, DASHBOARD_TEXTS.teamTitle)}</Route>
        {session.sandbox && (
          <Route path="/sandbox">
            {allowed('sandbox', <SandboxPage />, DASHBOARD_TEXTS.sandboxTitle)}
          </Route>
        )}
        <Route>
          <Redirect to="/" />
        </Route>
      </Switch>
    </div>
  );
}

/** A screen the role may not open, reached by its address: said plainly, without its forms. */
function NotForYourRole({ title, session }: { title: string; session: TDashboardSession }) {
  return (
    <Screen title={title}>
      <section className="dash-card">
        <p>{DASHBOARD_TEXTS.notForYourRole(ROLE_LABELS[session.role], session.merchant.name)}</p>
        <Link href="/">← {DASHBOARD_TEXTS.nav.payments}</Link>
      </section>
    </Screen>
  );
}
