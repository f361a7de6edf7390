import {
  createContext,
  use,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { standalonePageTitle } from '../../../domain/consent-header';
import { MOBILE_BREAKPOINT_PX } from '../../../domain/constants';
import {
  consentPageView,
  hasSidePanel,
  SAVED_ACCOUNT_SIGN_IN,
  type TConsentLoad,
  type TConsentScreen,
} from '../../../domain/consent-screen';
import { PAGE_ERRORS } from '../../../domain/page-errors';
import { EMBED_MESSAGE } from '../../../domain/embed-message-names';
import { returnAddress } from '../../../domain/return-url';
import { parsePageParams, type TPageParams } from '../../../domain/page-params';
import { PAYER_CONSENTS_LINK, PAYER_CONSENTS_PATH } from '../../../domain/payer-pages';
import { payNowGrantRequest } from '../../../domain/pay-now';
import type { TConsent } from '../../../domain/schemas/consent';
import { ApiError } from '../../api/api-error';
import { usePublicConfig } from '../../api/auth';
import { useConsentQuery } from '../../api/consent';
import type {
  TConsentScreens,
  TEmbedReports,
  TPayNowPrompts,
  TPostToParent,
} from '../../contracts/consent-slots';
import { Button } from '../../ui/button';
import { ScreenMain } from '../../ui/screen-main';
import { ConsentGrantedScreen } from './consent-granted-screen';
import { ConsentDeclinedScreen } from './consent-declined-screen';
import { ConsentRevokedScreen } from './consent-revoked-screen';
import { ConsentHeader, MerchantByline } from './consent-header';
import { ConsentNotFoundScreen } from './consent-not-found-screen';
import { ConsentOverview } from './consent-overview';
import { ConsentPageFrame } from './consent-page-frame';
import { CONSENT_ERROR_TITLE, FailedScreen } from './failed-screen';
import { LoadingScreen } from './loading-screen';
import { MissingClientIdScreen } from './missing-client-id-screen';
import { useEmbedHeight } from './use-embed-height';
import { useEmbedReports } from './use-embed-reports';
import { WideOnly } from './use-min-width';
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

/** The standalone desktop view's side panel, with its QR code: loaded only where it shows. */
/** The standalone desktop view's side panel: its code loads only where it shows (WideOnly). */
export const ConsentSidePanel = preloadable(() =>
  import('./consent-side-panel').then((module) => module.ConsentSidePanel),
);

/** The steps of a signed-in payer's consent: their own chunk, loaded when first shown. */
// Shown only where passkeys do not work (an app's browser).
const NoPasskeyNotice = preloadable(() =>
  import('../../ui/no-passkey-notice').then((module) => module.NoPasskeyNotice),
);
const ConsentFlow = preloadable(() =>
  import('./consent-flow').then((module) => module.ConsentFlow),
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

const noop = () => undefined;

const unreachable = (screen: never): never => {
  throw new Error(`No screen for ${JSON.stringify(screen)}`);
};

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
  const successSent = useRef(false);
  // 'Sign In' on a consent that does not ask for it first (spec §2), or to pay from a saved
  // account: the auth prompt, until the payer goes back to the offer, focused.
  const [signInAsked, setSignInAsked] = useState(false);
  const backFromSignIn = useRef(false);
  // The header reads 'Link Account' while the account-linking panel is open (spec §2).
  const [linking, setLinking] = useState(false);
  // The offer after a payment that granted the consent, once settled, gives way to Consent Granted.
  const [offerSettled, setOfferSettled] = useState(false);
  const granted = () => {
    setOfferSettled(true);
    void query.refetch();
  };

  const reportHeight = useCallback(
    (height: number) => postToParent({ type: EMBED_MESSAGE.heightUpdate, height }),
    [postToParent],
  );
  useEmbedHeight(params.embed, rootRef, reportHeight);

  useEffect(() => {
    if (!params.clientId && params.embed) {
      postToParent({
        type: EMBED_MESSAGE.consentFailed,
        consentId,
        error: PAGE_ERRORS.MISSING_CLIENT_ID_PARAMETER.message,
      });
    }
  }, [params.clientId, params.embed, consentId, postToParent]);

  // Standalone: the tab carries the merchant's name and image (spec §2 Routes).
  useEffect(() => {
    if (params.embed || !consent) return;
    document.title = standalonePageTitle(consent.counterparty.name);
    if (consent.counterparty.image) {
      const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
      if (icon) icon.href = consent.counterparty.image;
    }
  }, [params.embed, consent]);

  // spec §7: the parent of a registered origin gets the consent once it has loaded.
  const dataSent = useRef<string | null>(null);
  useEffect(() => {
    if (!params.embed || !consent || dataSent.current === consent.consentId) return;
    if (
      postToParent({ type: EMBED_MESSAGE.consentData, consentData: consent }, embedOrigins ?? [])
    ) {
      dataSent.current = consent.consentId;
    }
  }, [params.embed, consent, embedOrigins, postToParent]);

  // spec §4: a granted status tells the parent once.
  useEffect(() => {
    if (!params.embed || consent?.status !== 'granted' || successSent.current) return;
    successSent.current = postToParent(
      { type: EMBED_MESSAGE.consentSuccess, consentData: consent },
      embedOrigins ?? [],
    );
  }, [params.embed, consent, embedOrigins, postToParent]);

  // The prompts after a payment; the auth prompt's sign-in reads the consent again, and the page
  // then opens it signed in, where the prompt's next step follows (spec §4).
  // The prompts' sign-in reads the page's consent from context, so it keeps its identity while
  // the consent is read again (a payment's refresh): a payer halfway through it is not started
  // over. Signed in, the consent is read again and the page opens it signed in, where the
  // prompt's next step follows (spec §4).
  const { refetch } = query;
  const signIn = useMemo<TPromptSignIn>(
    () => ({ AuthPrompt: screens.AuthPrompt, consent, productName, params, refetch }),
    [screens.AuthPrompt, consent, productName, params, refetch],
  );
  const prompts = useMemo<TPayNowPrompts>(
    () => ({
      SaveCardPrompt: screens.SaveCardPrompt,
      SignIn: PromptSignIn,
      LinkAccountPanel: screens.LinkAccountPanel,
      BvnVerification: screens.BvnVerification,
      ChipTerminal: screens.ChipTerminal,
    }),
    [
      screens.SaveCardPrompt,
      screens.LinkAccountPanel,
      screens.BvnVerification,
      screens.ChipTerminal,
    ],
  );

  const view = consentPageView({
    params,
    load: consentLoad(query),
    signedIn,
    productName,
    offerSettled,
    signInAsked,
  });
  const { header, byline, screen } = view;
  // The signed-in payer's own page: opened beside the consent, which keeps its place
  // (and, embedded, beside the merchant's page), as the withdraw line's link to it is.
  const consentsLink = view.consentsLink ? (
    <a className="consents-link" href={PAYER_CONSENTS_PATH} target="_blank" rel="noopener">
      {PAYER_CONSENTS_LINK}
    </a>
  ) : null;

  const reportFailure = (error: string) =>
    postToParent({ type: EMBED_MESSAGE.consentFailed, consentId, error });

  // Our messages besides the spec's: the step shown, the payment's status, a decline.
  const embedReports = useEmbedReports(params.embed, consentId, embedOrigins, postToParent);
  // A payment completed here is paid in the side panel before the consent is read again.
  const [paidHere, setPaidHere] = useState<ReadonlySet<string>>(new Set());
  const reports = useMemo<TEmbedReports>(
    () => ({
      ...embedReports,
      payment(report) {
        embedReports.payment(report);
        if (report.status === 'completed') {
          setPaidHere((paid) =>
            paid.has(report.paymentId) ? paid : new Set(paid).add(report.paymentId),
          );
        }
      },
    }),
    [embedReports],
  );
  // A payment alone is the Immediate Payment screen: the consent's one step.
  const alone = screen.kind === 'immediate-payment';
  const declined = screen.kind === 'declined';
  useEffect(() => {
    if (alone) reports.step('immediate_payment');
    if (declined) reports.declined();
  }, [alone, declined, reports]);

  const render = (shown: TConsentScreen): ReactNode => {
    switch (shown.kind) {
      case 'missing-client-id':
        return (
          <MissingClientIdScreen
            embed={params.embed}
            onReport={() => reportFailure(PAGE_ERRORS.MISSING_CLIENT_ID_PARAMETER.message)}
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
            retrying={query.isFetching}
            onReport={() => reportFailure(shown.message)}
            onRetry={() => void query.refetch()}
          />
        );
      case 'granted':
        return (
          <ConsentGrantedScreen
            consent={shown.consent}
            embed={params.embed}
            signedIn={signedIn}
            returnTo={returnAddress(query.data?.returnUrl, params.embed, shown.consent)}
            onComplete={() =>
              postToParent(
                { type: EMBED_MESSAGE.consentCompleted, consentId: shown.consent.consentId },
                embedOrigins ?? [],
              )
            }
          />
        );
      case 'revoked':
        return <ConsentRevokedScreen consent={shown.consent} />;
      case 'declined':
        return (
          <ConsentDeclinedScreen
            consent={shown.consent}
            embed={params.embed}
            returnTo={returnAddress(query.data?.returnUrl, params.embed, shown.consent)}
            // The parent hears the decline as the spec words it (§8 'Consent was rejected by user').
            onClose={() => reportFailure(PAGE_ERRORS.CONSENT_REJECTED.message)}
          />
        );
      case 'auth-prompt':
        return (
          <screens.AuthPrompt
            consent={shown.consent}
            productName={shown.productName}
            params={params}
            onAuthenticated={() => void query.refetch()}
            {...(signInAsked
              ? {
                  onBack() {
                    backFromSignIn.current = true;
                    setSignInAsked(false);
                  },
                }
              : {})}
          />
        );
      case 'immediate-payment':
        return (
          <screens.PayNow
            consent={shown.consent}
            payment={shown.payment}
            clientId={params.clientId ?? ''}
            signedIn={signedIn}
            signGrant={screens.signGrant}
            onGranted={granted}
            onFailed={reportFailure}
            onPaymentStatus={reports.payment}
            prompts={prompts}
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
                    otherWays: !passkeys.usable ? null : (
                      <section className="saved-accounts" aria-labelledby="saved-accounts-title">
                        <h2 id="saved-accounts-title" className="section-title">
                          {SAVED_ACCOUNT_SIGN_IN.title}
                        </h2>
                        <Button
                          variant="secondary"
                          // Back from the prompt it opened, the focus returns to it.
                          ref={(button) => {
                            if (!button || !backFromSignIn.current) return;
                            backFromSignIn.current = false;
                            button.focus();
                          }}
                          onClick={() => setSignInAsked(true)}
                        >
                          {SAVED_ACCOUNT_SIGN_IN.button}
                        </Button>
                      </section>
                    ),
                    savedAccountChosen: false,
                    inSteps: false,
                  },
                }
              : {})}
          />
        );
      case 'flow':
        return (
          <ConsentFlow
            consent={shown.consent}
            clientId={params.clientId ?? ''}
            embed={params.embed}
            screens={screens}
            prompts={prompts}
            onGranted={granted}
            onFailed={reportFailure}
            onReport={reportFailure}
            reports={reports}
            onLinkingChange={setLinking}
          />
        );
      case 'pending-summary':
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
                <Button onClick={() => setSignInAsked(true)}>Sign In</Button>
              </div>
            ) : null}
          </ConsentOverview>
        );
      default:
        return unreachable(shown);
    }
  };

  // Past the mobile breakpoint the standalone page has room for the side panel (spec §2, §9):
  // drawn at every width, shown by the stylesheet from 768 px, loaded only where it shows.
  const aside =
    hasSidePanel(params, screen) && 'consent' in screen ? (
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

  return (
    <PromptSignInContext value={signIn}>
      <ConsentPageFrame
        ref={rootRef}
        params={params}
        colours={consent?.counterparty.merchantColours}
        aside={aside}
      >
        {/* A screen another feature owns may still be loading: the Loading screen meanwhile, as
          before the consent came, so the header and the screen appear together, nothing moves. */}
        <PartBoundary
          loading={
            <ScreenMain>
              <LoadingScreen />
            </ScreenMain>
          }
          failed={(retry) => (
            <ScreenMain>
              <FailedScreen
                title={CONSENT_ERROR_TITLE}
                embed={params.embed}
                onRetry={retry}
                onReport={reportFailure}
              />
            </ScreenMain>
          )}
        >
          {header ? (
            <ConsentHeader counterparty={header} linking={linking}>
              {consentsLink}
            </ConsentHeader>
          ) : null}
          <ScreenMain>
            {byline ? (
              <MerchantByline counterparty={byline} linking={linking}>
                {consentsLink}
              </MerchantByline>
            ) : header || !consentsLink ? null : (
              <p className="consents-line">{consentsLink}</p>
            )}
            {render(screen)}
          </ScreenMain>
        </PartBoundary>
      </ConsentPageFrame>
    </PromptSignInContext>
  );
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
