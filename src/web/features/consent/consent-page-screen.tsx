import type { ReactNode, RefObject } from 'react';
import { SAVED_ACCOUNT_SIGN_IN, type TConsentScreen } from '../../../domain/consent-screen';
import { PAGE_ERRORS } from '../../../domain/page-errors';
import type { TPageParams } from '../../../domain/page-params';
import { returnAddress } from '../../../domain/return-url';
import { payNowGrantRequest } from '../../../domain/pay-now';
import type { TConsent } from '../../../domain/schemas/consent';
import type { TConsentScreens, TEmbedReports, TPayNowPrompts } from '../../contracts/consent-slots';
import { Button } from '../../ui/button';
import { PartBoundary } from '../../ui/part-boundary';
import { preloadable } from '../../ui/preloadable';
import type { usePasskeySupport } from '../../ui/use-passkey-support';
import { ConsentNotFoundScreen } from './consent-not-found-screen';
import { LoadingScreen } from './loading-screen';
import { MissingClientIdScreen } from './missing-client-id-screen';

/** Shown only where passkeys do not work (an app's browser). */
const NoPasskeyNotice = preloadable(() =>
  import('../../ui/no-passkey-notice').then((module) => module.NoPasskeyNotice),
);
/**
 * A settled consent's screens (settled-screens.ts): loaded before the page hydrates where the first
 * screen is one (app/first-screen.ts), else once the page is usable (loadSettledScreens).
 */
const ConsentGrantedScreen = preloadable(() =>
  import('./settled-screens').then((module) => module.ConsentGrantedScreen),
);
const ConsentRevokedScreen = preloadable(() =>
  import('./settled-screens').then((module) => module.ConsentRevokedScreen),
);
const ConsentDeclinedScreen = preloadable(() =>
  import('./settled-screens').then((module) => module.ConsentDeclinedScreen),
);

/**
 * What a pending consent asks for, read-only (consent-overview.tsx): the first screen of a payer
 * who is not signed in, loaded before the page hydrates there (app/first-screen.ts); the
 * Immediate Payment screens, which never show it, do not carry its code.
 */
export const ConsentOverview = preloadable(() =>
  import('./consent-overview').then((module) => module.ConsentOverview),
);

/** Loads a settled consent's screens now: what a grant or a decline on this page shows next. */
export const loadSettledScreens = () =>
  Promise.all([
    ConsentGrantedScreen.preload(),
    ConsentRevokedScreen.preload(),
    ConsentDeclinedScreen.preload(),
  ]);

/** The steps of a signed-in payer's consent: their own chunk, loaded when first shown. */
const ConsentFlow = preloadable(() =>
  import('./consent-flow-view').then((module) => module.ConsentFlow),
);

/**
 * 'Sign In' on a consent that does not ask for it first (spec §2), or to pay from a saved
 * account: asked until the payer goes back to the offer, whose button then has the focus again.
 */
export type TSignInAsked = {
  asked: boolean;
  ask(): void;
  back(): void;
  backFromSignIn: RefObject<boolean>;
};

/** What the page gives the screen it shows: its parameters, its reports and its ways out. */
export type TScreenPage = {
  params: TPageParams;
  signedIn: boolean;
  screens: TConsentScreens;
  prompts: TPayNowPrompts;
  reports: TEmbedReports;
  passkeys: ReturnType<typeof usePasskeySupport>;
  signIn: TSignInAsked;
  /** The consent is being read again. */
  retrying: boolean;
  refetch(): void;
  granted(): void;
  reportFailure(error: string): void;
  /** The parent hears the payer is done with a granted consent. */
  completed(consent: TConsent): void;
  /** The merchant's return address, as the consent was read. */
  returnUrl: string | null | undefined;
  setLinking(linking: boolean): void;
};

const noop = () => undefined;

const unreachable = (screen: never): never => {
  throw new Error(`No screen for ${JSON.stringify(screen)}`);
};

/** The screen the domain chose for the consent's state (src/domain/consent-screen.ts, spec §2). */
export function consentPageScreen(shown: TConsentScreen, page: TScreenPage): ReactNode {
  const { params } = page;
  switch (shown.kind) {
    case 'missing-client-id':
      return (
        <MissingClientIdScreen
          embed={params.embed}
          onReport={() => page.reportFailure(PAGE_ERRORS.MISSING_CLIENT_ID_PARAMETER.message)}
          onRetry={() => window.location.reload()}
        />
      );
    case 'loading':
      return <LoadingScreen />;
    case 'not-found':
      return (
        <ConsentNotFoundScreen
          message={shown.message}
          retryable={shown.retryable}
          embed={params.embed}
          retrying={page.retrying}
          onReport={() => page.reportFailure(shown.message)}
          onRetry={page.refetch}
        />
      );
    case 'granted':
      return (
        <PartBoundary loading={<LoadingScreen />}>
          <ConsentGrantedScreen
            consent={shown.consent}
            embed={params.embed}
            signedIn={page.signedIn}
            returnTo={returnAddress(page.returnUrl, params.embed, shown.consent)}
            onComplete={() => page.completed(shown.consent)}
          />
        </PartBoundary>
      );
    case 'revoked':
      return (
        <PartBoundary loading={<LoadingScreen />}>
          <ConsentRevokedScreen consent={shown.consent} />
        </PartBoundary>
      );
    case 'declined':
      return (
        <PartBoundary loading={<LoadingScreen />}>
          <ConsentDeclinedScreen
            consent={shown.consent}
            embed={params.embed}
            returnTo={returnAddress(page.returnUrl, params.embed, shown.consent)}
            // The parent hears the decline as the spec words it (§8 'Consent was rejected by user').
            onClose={() => page.reportFailure(PAGE_ERRORS.CONSENT_REJECTED.message)}
          />
        </PartBoundary>
      );
    case 'auth-prompt':
      return authPromptScreen(shown, page);
    case 'immediate-payment':
      return immediatePaymentScreen(shown, page);
    case 'flow':
      return (
        <ConsentFlow
          consent={shown.consent}
          clientId={params.clientId ?? ''}
          embed={params.embed}
          screens={page.screens}
          prompts={page.prompts}
          onGranted={page.granted}
          onFailed={page.reportFailure}
          onReport={page.reportFailure}
          reports={page.reports}
          onLinkingChange={page.setLinking}
        />
      );
    case 'pending-summary':
      return pendingSummaryScreen(shown, page);
    default:
      return unreachable(shown);
  }
}

/** The auth prompt; asked from the offer, it can go back to it. */
function authPromptScreen(
  shown: Extract<TConsentScreen, { kind: 'auth-prompt' }>,
  { screens, params, signIn, refetch }: TScreenPage,
): ReactNode {
  return (
    <screens.AuthPrompt
      consent={shown.consent}
      productName={shown.productName}
      params={params}
      onAuthenticated={refetch}
      {...(signIn.asked ? { onBack: signIn.back } : {})}
    />
  );
}

/** The Immediate Payment screen: the consent's one step, a payment. */
function immediatePaymentScreen(
  shown: Extract<TConsentScreen, { kind: 'immediate-payment' }>,
  page: TScreenPage,
): ReactNode {
  const { screens, params, passkeys } = page;
  return (
    <screens.PayNow
      consent={shown.consent}
      payment={shown.payment}
      clientId={params.clientId ?? ''}
      signedIn={page.signedIn}
      signGrant={screens.signGrant}
      onGranted={page.granted}
      onFailed={page.reportFailure}
      onPaymentStatus={page.reports.payment}
      prompts={page.prompts}
      // Where a signed-in payer's saved accounts would be, the sign-in to them.
      {...(shown.canSignIn
        ? {
            flow: {
              grantRequest: (paidBy) =>
                payNowGrantRequest(shown.consent, shown.payment, paidBy.type, false),
              // Where no passkey can approve a saved account's debit (an app's browser),
              // the page says so below the ways to pay, which come first, and offers the
              // browser instead.
              afterWays: passkeys.usable ? null : (
                <PartBoundary loading={null}>
                  <NoPasskeyNotice kind={passkeys.kind} payMeanwhile />
                </PartBoundary>
              ),
              otherWays: !passkeys.usable ? null : savedAccountSignIn(page.signIn),
              savedAccountChosen: false,
              inSteps: false,
            },
          }
        : {})}
    />
  );
}

/** Where a signed-in payer's saved accounts would be: the sign-in to pay from one. */
function savedAccountSignIn(signIn: TSignInAsked): ReactNode {
  return (
    <section className="saved-accounts" aria-labelledby="saved-accounts-title">
      <h2 id="saved-accounts-title" className="section-title">
        {SAVED_ACCOUNT_SIGN_IN.title}
      </h2>
      <Button
        variant="secondary"
        // Back from the prompt it opened, the focus returns to it.
        ref={(button) => {
          if (!button || !signIn.backFromSignIn.current) return;
          signIn.backFromSignIn.current = false;
          button.focus();
        }}
        onClick={signIn.ask}
      >
        {SAVED_ACCOUNT_SIGN_IN.button}
      </Button>
    </section>
  );
}

/** What the consent asks for, read-only, and the sign-in to grant it where it is offered. */
function pendingSummaryScreen(
  shown: Extract<TConsentScreen, { kind: 'pending-summary' }>,
  { params, screens, signIn }: TScreenPage,
): ReactNode {
  return (
    <ConsentOverview consent={shown.consent}>
      {/* Public mode is read-only and can show a form (spec §2): its title and sections. */}
      {params.isPublic && shown.consent.formId ? (
        <screens.FormStep
          consent={shown.consent}
          clientId={params.clientId ?? ''}
          readOnly
          onComplete={noop}
        />
      ) : null}
      {shown.canSignIn ? (
        <div className="sign-in-to-grant">
          <p>Please sign in to grant consent</p>
          <Button onClick={signIn.ask}>Sign In</Button>
        </div>
      ) : null}
    </ConsentOverview>
  );
}
