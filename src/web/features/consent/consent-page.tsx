import { createContext, use, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { MOBILE_BREAKPOINT_PX } from '../../../domain/constants';
import {
  consentPageView,
  hasSidePanel,
  type TConsentLoad,
  type TConsentPageView,
  type TConsentScreen,
} from '../../../domain/consent-screen';
import { EMBED_MESSAGE } from '../../../domain/embed-message-names';
import { parsePageParams, type TPageParams } from '../../../domain/page-params';
import { PAYER_CONSENTS_LINK, PAYER_CONSENTS_PATH } from '../../../domain/payer-pages';
import type { TConsent } from '../../../domain/schemas/consent';
import { ApiError } from '../../api/api-error';
import { usePublicConfig } from '../../api/auth';
import { useConsentQuery } from '../../api/consent-calls';
import type {
  TConsentScreens,
  TEmbedReports,
  TPayNowPrompts,
  TPostToParent,
} from '../../contracts/consent-slots';
import { ScreenMain } from '../../ui/screen-main';
import { ConsentHeader, MerchantByline } from './consent-header-view';
import {
  consentPageScreen,
  loadSettledScreens,
  type TScreenPage,
  type TSignInAsked,
} from './consent-page-screen';
import { ConsentPageFrame } from './consent-page-frame';
import { CONSENT_ERROR_TITLE, FailedScreen } from './failed-screen';
import { LoadingScreen } from './loading-screen';
import { useConsentPageMessages, usePaymentReports } from './use-consent-page-messages';
import { WideOnly } from './use-min-width';
import { PageSettledMark } from '../../page-settled';
import { storedSignIn } from '../../api/session';
import { PartBoundary } from '../../ui/part-boundary';
import { usePasskeySupport } from '../../ui/use-passkey-support';
import { preloadable } from '../../ui/preloadable';

type TConsentPageProps = {
  consentId: string;
  /** The page's query string (spec §2 query parameters). */
  search: string;
  /** A payer session is stored (spec §6). */
  signedIn: boolean;
  screens: TConsentScreens;
  postToParent: TPostToParent;
};

type TLoadQuery = ReturnType<typeof useConsentQuery>;

/** The standalone desktop view's side panel: its code loads only where it shows (WideOnly). */
export const ConsentSidePanel = preloadable(() =>
  import('./consent-side-panel').then((module) => module.ConsentSidePanel),
);

/** The consent read as the domain's screen choice takes it. */
function consentLoad(query: TLoadQuery): TConsentLoad {
  if (query.isPending) return { state: 'pending' };
  if (query.isError) {
    const { error } = query;
    return error instanceof ApiError
      ? { state: 'failed', status: error.status, serverMessage: error.message }
      : { state: 'failed', status: null, serverMessage: null };
  }
  return { state: 'loaded', consent: query.data.consent };
}

/**
 * /r/{consentId}: loads the consent and shows the screen the domain chooses for its state
 * (src/domain/consent-screen.ts, spec §2), and speaks the embed protocol (spec §7).
 */
export function ConsentPage({
  consentId,
  search,
  signedIn,
  screens,
  postToParent,
}: TConsentPageProps) {
  const params = useMemo(() => parsePageParams(search), [search]);
  const query = useConsentQuery(consentId, params.clientId);
  const productName = usePublicConfig().data?.productName ?? null;
  const passkeys = usePasskeySupport();
  const consent = query.data?.consent;
  const embedOrigins = query.data?.embedOrigins;
  const rootRef = useRef<HTMLDivElement>(null);
  const signInAsked = useSignInAsked();
  // The header reads 'Link Account' while the account-linking panel is open (spec §2).
  const [linking, setLinking] = useState(false);
  // The offer after a payment that granted the consent, once settled, gives way to Consent Granted.
  const [offerSettled, setOfferSettled] = useState(false);
  useConsentPageMessages({ params, consentId, consent, embedOrigins, postToParent, rootRef });
  // What a grant or a decline shows next, once this screen is usable (its own part).
  useEffect(() => void loadSettledScreens().catch(() => undefined), []);
  const signIn = usePromptSignIn(screens, consent, productName, params, query.refetch);
  const prompts = usePayNowPrompts(screens);

  const view = consentPageView({
    params,
    load: consentLoad(query),
    signedIn,
    productName,
    offerSettled,
    signInAsked: signInAsked.asked,
  });
  const { screen } = view;
  const reportFailure = (error: string) =>
    postToParent({ type: EMBED_MESSAGE.consentFailed, consentId, error });
  const { reports, paidHere } = usePaymentReports(
    params.embed,
    consentId,
    embedOrigins,
    postToParent,
  );
  useScreenReports(screen, reports);

  const page: TScreenPage = {
    params,
    signedIn,
    screens,
    prompts,
    reports,
    passkeys,
    signIn: signInAsked,
    retrying: query.isFetching,
    refetch: () => void query.refetch(),
    granted() {
      setOfferSettled(true);
      void query.refetch();
    },
    reportFailure,
    completed: (shown) =>
      postToParent(
        { type: EMBED_MESSAGE.consentCompleted, consentId: shown.consentId },
        embedOrigins ?? [],
      ),
    returnUrl: query.data?.returnUrl,
    setLinking,
  };

  return (
    <PromptSignInContext value={signIn}>
      <ConsentPageFrame
        ref={rootRef}
        params={params}
        colours={consent?.counterparty.merchantColours}
        aside={sidePanel(params, screen, paidHere)}
      >
        {/* A screen another feature owns may still be loading: the Loading screen meanwhile, as
          before the consent came, so the header and the screen appear together, nothing moves. */}
        <PartBoundary
          loading={
            <ScreenMain>
              <LoadingScreen />
            </ScreenMain>
          }
          failed={(retry) => partFailed(params.embed, retry, reportFailure)}
        >
          {pageHeading(view, linking)}
          <ScreenMain>
            {pageByline(view, linking)}
            {consentPageScreen(screen, page)}
          </ScreenMain>
          {/* Settled once the screen shown is the stored session's: held taps wait for it. */}
          <PageSettledMark settled={signedIn === storedSignIn()} />
        </PartBoundary>
      </ConsentPageFrame>
    </PromptSignInContext>
  );
}

/** A screen whose code did not come: the consent's error screen, which can load it again. */
function partFailed(
  embed: boolean,
  retry: () => Promise<void>,
  reportFailure: (error: string) => void,
) {
  return (
    <ScreenMain>
      <FailedScreen
        title={CONSENT_ERROR_TITLE}
        embed={embed}
        onRetry={retry}
        onReport={reportFailure}
      />
      {/* What the payer goes on with: a tap held for the screen is given here. */}
      <PageSettledMark settled />
    </ScreenMain>
  );
}

/** The sign-in asked from the offer, and whether the payer came back from it. */
function useSignInAsked(): TSignInAsked {
  const [asked, setAsked] = useState(false);
  const backFromSignIn = useRef(false);
  return {
    asked,
    ask: () => setAsked(true),
    back() {
      backFromSignIn.current = true;
      setAsked(false);
    },
    backFromSignIn,
  };
}

/**
 * The prompts' sign-in reads the page's consent from context, so it keeps its identity while
 * the consent is read again (a payment's refresh): a payer halfway through it is not started
 * over. Signed in, the consent is read again and the page opens it signed in, where the
 * prompt's next step follows (spec §4).
 */
function usePromptSignIn(
  screens: TConsentScreens,
  consent: TConsent | undefined,
  productName: string | null,
  params: TPageParams,
  refetch: () => Promise<unknown>,
) {
  return useMemo<TPromptSignIn>(
    () => ({ AuthPrompt: screens.AuthPrompt, consent, productName, params, refetch }),
    [screens.AuthPrompt, consent, productName, params, refetch],
  );
}

/** The prompts after a payment, each from the feature that owns it. */
function usePayNowPrompts(screens: TConsentScreens) {
  return useMemo<TPayNowPrompts>(
    () => ({
      SaveCardPrompt: screens.SaveCardPrompt,
      SignIn: PromptSignIn,
      LinkAccountPanel: screens.LinkAccountPanel,
      BvnVerification: screens.BvnVerification,
      ChipTerminal: screens.ChipTerminal,
      PushedTerminal: screens.PushedTerminal,
    }),
    [
      screens.SaveCardPrompt,
      screens.LinkAccountPanel,
      screens.BvnVerification,
      screens.ChipTerminal,
      screens.PushedTerminal,
    ],
  );
}

/** The parent hears the step of a payment alone (the consent's one step) and a decline. */
function useScreenReports(screen: TConsentScreen, reports: TEmbedReports) {
  const alone = screen.kind === 'immediate-payment';
  const declined = screen.kind === 'declined';
  useEffect(() => {
    if (alone) reports.step('immediate_payment');
    if (declined) reports.declined();
  }, [alone, declined, reports]);
}

/**
 * The signed-in payer's own page: opened beside the consent, which keeps its place (and,
 * embedded, beside the merchant's page), as the withdraw line's link to it is.
 */
function consentsLink(view: TConsentPageView): ReactNode {
  return view.consentsLink ? (
    <a className="consents-link" href={PAYER_CONSENTS_PATH} target="_blank" rel="noopener">
      {PAYER_CONSENTS_LINK}
    </a>
  ) : null;
}

/** The merchant's header above the screen, where the view has one. */
function pageHeading(view: TConsentPageView, linking: boolean): ReactNode {
  return view.header ? (
    <ConsentHeader counterparty={view.header} linking={linking}>
      {consentsLink(view)}
    </ConsentHeader>
  ) : null;
}

/** The merchant's byline atop the screen, or the consents link alone where nothing carries it. */
function pageByline(view: TConsentPageView, linking: boolean): ReactNode {
  const link = consentsLink(view);
  if (view.byline) {
    return (
      <MerchantByline counterparty={view.byline} linking={linking}>
        {link}
      </MerchantByline>
    );
  }
  return view.header || !link ? null : <p className="consents-line">{link}</p>;
}

/**
 * Past the mobile breakpoint the standalone page has room for the side panel (spec §2, §9):
 * drawn at every width, shown by the stylesheet from 768 px, loaded only where it shows.
 */
function sidePanel(
  params: TPageParams,
  screen: TConsentScreen,
  paidHere: ReadonlySet<string>,
): ReactNode {
  return hasSidePanel(params, screen) && 'consent' in screen ? (
    // The panel beside the consent is extra: one whose code did not come is left out.
    <PartBoundary failed={() => null}>
      <WideOnly px={MOBILE_BREAKPOINT_PX}>
        <ConsentSidePanel
          consent={screen.consent}
          clientId={params.clientId ?? ''}
          paidHere={paidHere}
        />
      </WideOnly>
    </PartBoundary>
  ) : null;
}

type TPromptSignIn = {
  AuthPrompt: TConsentScreens['AuthPrompt'];
  consent: TConsent | undefined;
  productName: string | null;
  params: TPageParams;
  refetch(): Promise<unknown>;
};

const PromptSignInContext = createContext<TPromptSignIn | null>(null);

/** The auth prompt of 'Sign In to Save Account' and 'Sign In & Save Card' (spec §2). */
function PromptSignIn({ onAuthenticated }: { onAuthenticated(): void }) {
  const signIn = use(PromptSignInContext);
  if (!signIn?.consent || !signIn.productName) return null;
  const { AuthPrompt, consent, productName, params, refetch } = signIn;
  return (
    <AuthPrompt
      consent={consent}
      productName={productName}
      params={params}
      // Only the prompts after a payment ask for sign-in here: the payment is made.
      paymentMade
      onAuthenticated={() => {
        onAuthenticated();
        void refetch();
      }}
    />
  );
}
