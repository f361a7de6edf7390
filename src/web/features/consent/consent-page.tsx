import {
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  type ComponentType,
  type ReactNode,
} from 'react';
import { standalonePageTitle } from '../../../domain/consent-header';
import { consentSteps } from '../../../domain/consent-steps';
import {
  consentPageView,
  type TConsentLoad,
  type TConsentScreen,
} from '../../../domain/consent-screen';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import { EMBED_MESSAGE, type TEmbedMessage } from '../../../domain/embed-messages';
import { parsePageParams, type TPageParams } from '../../../domain/page-params';
import type { TSignedGrant } from '../../../domain/schemas/auth';
import type { TConsent, TPayment } from '../../../domain/schemas/consent';
import type { TGrantRequest } from '../../../domain/schemas/consent-api';
import { ApiError } from '../../api/api-error';
import { usePublicConfig } from '../../api/auth';
import { useConsentQuery } from '../../api/consent';
import { ScreenMain } from '../../ui/screen-main';
import { ConsentGrantedScreen } from './consent-granted-screen';
import { ConsentHeader } from './consent-header';
import { ConsentNotFoundScreen } from './consent-not-found-screen';
import { ConsentOverview } from './consent-overview';
import { ConsentPageFrame } from './consent-page-frame';
import { LoadingScreen } from './loading-screen';
import { MissingClientIdScreen } from './missing-client-id-screen';
import { useEmbedHeight } from './use-embed-height';

/** What the auth prompt screen is given; the auth feature owns the screen. */
export type TAuthPromptScreenProps = {
  consent: TConsent;
  productName: string;
  params: Pick<TPageParams, 'clientId' | 'authAppId'>;
  onAuthenticated(): void;
};

/** What the Immediate Payment screen is given; the payment feature owns the screen. */
export type TPayNowScreenProps = {
  consent: TConsent;
  payment: TPayment;
  clientId: string;
  signedIn: boolean;
  /** A signed-in payer's passkey signs the grant. */
  signGrant(consentId: string, payload: TGrantRequest): Promise<TSignedGrant>;
  /** The consent is granted: the page reads it again. */
  onGranted(): void;
  /** The grant failed: the parent is told. */
  onFailed(error: string): void;
};

/**
 * Screens other features own, plugged in by the app: features do not import each other, and a
 * screen may load only when the page first needs it.
 */
export type TConsentScreens = {
  AuthPrompt: ComponentType<TAuthPromptScreenProps>;
  PayNow: ComponentType<TPayNowScreenProps>;
  /** The signed-in payer's repayment accounts, and the account-linking panel. */
  RepaymentAccounts: ComponentType;
  signGrant: TPayNowScreenProps['signGrant'];
};

/** Posts to the embedding parent (the app's embed bridge): true when the message went. */
export type TPostToParent = (message: TEmbedMessage, allowedOrigins?: readonly string[]) => boolean;

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
  const consent = query.data?.consent;
  const embedOrigins = query.data?.embedOrigins;
  const rootRef = useRef<HTMLDivElement>(null);
  const successSent = useRef(false);

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
        error: ERROR_CATALOGUE.MISSING_CLIENT_ID_PARAMETER.message,
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

  // spec §4: a granted status tells the parent once.
  useEffect(() => {
    if (!params.embed || consent?.status !== 'granted' || successSent.current) return;
    successSent.current = postToParent(
      { type: EMBED_MESSAGE.consentSuccess, consentData: consent },
      embedOrigins ?? [],
    );
  }, [params.embed, consent, embedOrigins, postToParent]);

  const { screen, header } = consentPageView({
    params,
    load: consentLoad(query),
    signedIn,
    productName,
  });

  const reportFailure = (error: string) =>
    postToParent({ type: EMBED_MESSAGE.consentFailed, consentId, error });

  const render = (shown: TConsentScreen): ReactNode => {
    switch (shown.kind) {
      case 'missing-client-id':
        return (
          <MissingClientIdScreen
            embed={params.embed}
            onReport={() => reportFailure(ERROR_CATALOGUE.MISSING_CLIENT_ID_PARAMETER.message)}
            onRetry={() => window.location.reload()}
          />
        );
      case 'loading':
        return <LoadingScreen />;
      case 'not-found':
        return (
          <ConsentNotFoundScreen
            message={shown.message}
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
            onComplete={() =>
              postToParent(
                { type: EMBED_MESSAGE.consentCompleted, consentId: shown.consent.consentId },
                embedOrigins ?? [],
              )
            }
          />
        );
      case 'auth-prompt':
        return (
          <screens.AuthPrompt
            consent={shown.consent}
            productName={shown.productName}
            params={params}
            onAuthenticated={() => void query.refetch()}
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
            onGranted={() => void query.refetch()}
            onFailed={reportFailure}
          />
        );
      case 'pending-summary':
        return (
          <ConsentOverview consent={shown.consent}>
            {signedIn && consentSteps(shown.consent).includes('future_payments') ? (
              <screens.RepaymentAccounts />
            ) : null}
          </ConsentOverview>
        );
      default:
        return unreachable(shown);
    }
  };

  return (
    <ConsentPageFrame ref={rootRef} params={params} colours={consent?.counterparty.merchantColours}>
      {/* A screen another feature owns may still be loading: the Loading screen meanwhile, as
          before the consent came, so the header and the screen appear together, nothing moves. */}
      <Suspense
        fallback={
          <ScreenMain>
            <LoadingScreen />
          </ScreenMain>
        }
      >
        {header ? <ConsentHeader counterparty={header} /> : null}
        <ScreenMain>{render(screen)}</ScreenMain>
      </Suspense>
    </ConsentPageFrame>
  );
}
