import { offersAfterPayment } from './after-payment';
import { shouldShowAuthPrompt } from './auth-prompt';
import { isConsentHeaderVisible, isMerchantBylineVisible } from './consent-header';
import { consentLoadErrorMessage, isConsentLoadRetryable } from './consent-load-error';
import type { TPageParams } from './page-params';
import { payNowPayment } from './pay-now';
import type { TConsent, TCounterparty, TPayment } from './schemas/consent';

/** Where the consent read stands (GET /api/consent/{id}?clientId=, spec §7). */
export type TConsentLoad =
  /** Asked for, no answer yet. */
  | { state: 'pending' }
  /**
   * No consent: the HTTP status and the server's catalogue message when the server answered,
   * both null when it could not be reached or its answer made no sense.
   */
  | { state: 'failed'; status: number | null; serverMessage: string | null }
  | { state: 'loaded'; consent: TConsent };

/** The screens of the consent page, one of which shows at a time (spec §2). */
export type TConsentScreen =
  /** No clientId in the URL: nothing may be loaded (spec §2 Missing Client ID). */
  | { kind: 'missing-client-id' }
  /** The consent, or what its first screen needs, is on its way (spec §2 Loading). */
  | { kind: 'loading' }
  /**
   * The load failed: the §8 text, the server's own for a 404 or 403 (spec §2 Consent Not Found);
   * `retryable` when reading again may succeed (a refusal answers the same every time).
   */
  | { kind: 'not-found'; message: string; retryable: boolean }
  /** Already granted: what was granted, and the parent is told (spec §2 Consent Granted, §4). */
  | { kind: 'granted'; consent: TConsent }
  /** Granted, then revoked by its payer: nothing more is collected (docs/payer-consents.md). */
  | { kind: 'revoked'; consent: TConsent }
  /** Declined by its payer ('Decline', spec §4): there is nothing left to grant. */
  | { kind: 'declined'; consent: TConsent }
  /** The consent needs a signed-in payer first (spec §6, §2 Auth prompt). */
  | { kind: 'auth-prompt'; consent: TConsent; productName: string }
  /**
   * Only an immediate payment is asked: the payer pays it here, then it is granted (pay-now.ts).
   * `canSignIn`: where a signed-in payer chooses a saved account ('OneTap'), this payer, not signed
   * in, may sign in to do so.
   */
  | { kind: 'immediate-payment'; consent: TConsent; payment: TPayment; canSignIn: boolean }
  /** A signed-in payer's consent flow: its steps, then the grant (spec §2 Main consent flow). */
  | { kind: 'flow'; consent: TConsent }
  /**
   * What the consent asks for, read-only: in public mode, or for a payer not signed in on a
   * consent that does not ask for sign-in first ('Please sign in to grant consent', spec §2).
   */
  | { kind: 'pending-summary'; consent: TConsent; canSignIn: boolean };

export type TConsentScreenKind = TConsentScreen['kind'];

/**
 * Where a signed-in payer chooses a saved account for the payment ('OneTap'), the sign-in offered
 * to a payer who is not.
 */
export const SAVED_ACCOUNT_SIGN_IN = {
  /** As a signed-in payer's saved accounts are titled. */
  title: 'Pay from a saved account',
  button: 'Sign In to Pay with OneTap',
} as const;

export type TConsentScreenInput = {
  params: Pick<TPageParams, 'clientId' | 'embed' | 'isPublic'>;
  load: TConsentLoad;
  /** A payer session is stored (token and user, spec §6). */
  signedIn: boolean;
  /** The product that authenticates payers (public config); null until it has loaded. */
  productName: string | null;
  /**
   * The payer settled the offer after the payment on this page ('Skip for Now', 'Maybe later', or
   * the prompt's work done): a consent its payment granted then shows Consent Granted.
   */
  offerSettled?: boolean;
  /**
   * The payer asked to sign in on a consent that does not ask for it first ('Sign In' under the
   * summary, or to pay from a saved account): the auth prompt, until they go back.
   */
  signInAsked?: boolean;
};

export type TConsentPageView = {
  screen: TConsentScreen;
  /** Whose consent header shows above the screen, or null when none does (spec §2). */
  header: TCounterparty | null;
  /**
   * Whose one-line byline shows above the screen where the header does not (embedded), or null: on
   * the screens that do not name the merchant themselves, so that the payer always knows who asks.
   */
  byline: TCounterparty | null;
  /**
   * A link to the signed-in payer's own page, 'Your consents' (PAYER_CONSENTS_PATH), on their
   * consent: in the header where it shows, else in the byline, else atop the screen.
   */
  consentsLink: boolean;
};

function chooseScreen({
  params,
  load,
  signedIn,
  productName,
  offerSettled = false,
  signInAsked = false,
}: TConsentScreenInput): TConsentScreen {
  if (!params.clientId) return { kind: 'missing-client-id' };
  if (load.state === 'pending') return { kind: 'loading' };
  if (load.state === 'failed') {
    return {
      kind: 'not-found',
      message: consentLoadErrorMessage(load.status, load.serverMessage),
      retryable: isConsentLoadRetryable(load.status),
    };
  }
  const { consent } = load;
  // Granted by its payment, the prompt after it stays an offer the payer may take (item 6).
  const offer = offersAfterPayment(consent, { settled: offerSettled });
  if (consent.status === 'granted' && !offer) return { kind: 'granted', consent };
  if (consent.status === 'revoked') return { kind: 'revoked', consent };
  if (consent.status === 'declined') return { kind: 'declined', consent };
  if (shouldShowAuthPrompt({ consent, signedIn, isPublic: params.isPublic })) {
    // The prompt names the product ('uses {product} to authenticate users'): it waits for it.
    return productName ? { kind: 'auth-prompt', consent, productName } : { kind: 'loading' };
  }
  if (signedIn && !params.isPublic) return { kind: 'flow', consent };
  const payment = offer
    ? (consent.payments.find((p) => p.type === 'immediate') ?? null)
    : payNowPayment(consent);
  // Sign-in asked for where it is offered: the auth prompt, which names the product.
  const asked = signInAsked && productName !== null && !params.isPublic;
  if (payment && !params.isPublic) {
    // Paid already (the offer after the payment): its prompts offer the sign-in themselves.
    const canSignIn = !offer && productName !== null;
    if (asked && canSignIn) return { kind: 'auth-prompt', consent, productName };
    return { kind: 'immediate-payment', consent, payment, canSignIn };
  }
  if (asked) return { kind: 'auth-prompt', consent, productName };
  return { kind: 'pending-summary', consent, canSignIn: !params.isPublic };
}

/**
 * What the consent page shows (spec §2): the screen the load, the page's parameters and the
 * payer's session call for, and whether the consent header sits above it (a pending consent's
 * screens only: Consent Granted has none). The page renders
 * this choice; its screens do not choose again.
 */
export function consentPageView(input: TConsentScreenInput): TConsentPageView {
  const screen = chooseScreen(input);
  // The header comes with the consent's own screens, never over Loading: header and screen
  // appear together, so nothing on the page moves when they do (layout shift).
  const consent =
    screen.kind === 'auth-prompt' ||
    screen.kind === 'pending-summary' ||
    screen.kind === 'flow' ||
    screen.kind === 'immediate-payment'
      ? screen.consent
      : null;
  const header =
    consent && isConsentHeaderVisible(consent, { embed: input.params.embed })
      ? consent.counterparty
      : null;
  // The auth prompt names the counterparty itself; a payment alone is on its payment card.
  const byline =
    (screen.kind === 'flow' || screen.kind === 'pending-summary') &&
    isMerchantBylineVisible(screen.consent, { embed: input.params.embed })
      ? screen.consent.counterparty
      : null;
  // Only a signed-in payer's consent is the flow (chooseScreen).
  return { screen, header, byline, consentsLink: screen.kind === 'flow' };
}

/**
 * Whether the standalone desktop view shows its side panel beside this screen (spec §2 Desktop
 * side panel): a pending consent's screens, standalone, not full screen. The page shows it from
 * MOBILE_BREAKPOINT_PX wide.
 */
export function hasSidePanel(
  params: Pick<TPageParams, 'embed' | 'fullScreen'>,
  screen: TConsentScreen,
): boolean {
  return (
    !params.embed &&
    !params.fullScreen &&
    'consent' in screen &&
    screen.kind !== 'granted' &&
    screen.kind !== 'revoked' &&
    screen.kind !== 'declined'
  );
}
