import { useEffect, useMemo, useRef, type CSSProperties } from 'react';
import { useLocation, useParams } from 'react-router';
import { shouldShowAuthPrompt } from '../../../domain/auth-prompt';
import { isConsentHeaderVisible, standalonePageTitle } from '../../../domain/consent-header';
import { DEFAULT_MERCHANT_COLOURS, HEIGHT_UPDATE_DEBOUNCE_MS } from '../../../domain/constants';
import { consentLoadErrorMessage } from '../../../domain/consent-load-error';
import { embeddedHeight } from '../../../domain/embed-height';
import { EMBED_MESSAGE } from '../../../domain/embed-messages';
import { parsePageParams } from '../../../domain/page-params';
import type { TMerchantColours } from '../../../domain/schemas/consent';
import { usePublicConfig } from '../../api/auth';
import { useConsentQuery } from '../../api/consent';
import { ApiError } from '../../api/http';
import { AuthPrompt, useSession } from '../../features/auth';
import { ConsentGrantedScreen } from '../../features/consent/consent-granted-screen';
import { ConsentHeader } from '../../features/consent/consent-header';
import { ConsentNotFoundScreen } from '../../features/consent/consent-not-found-screen';
import { ConsentOverview } from '../../features/consent/consent-overview';
import { LoadingScreen } from '../../features/consent/loading-screen';
import { MissingClientIdScreen } from '../../features/consent/missing-client-id-screen';
import { postToParent } from '../embed-bridge';

/** The load error as the spec words it (§8). */
const loadErrorMessage = (error: unknown) =>
  error instanceof ApiError
    ? consentLoadErrorMessage(error.status, error.message)
    : consentLoadErrorMessage(null, null);

/** Reports the page's height to the embedding parent whenever it changes (spec §7). */
function useEmbedHeight(embed: boolean, target: React.RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = target.current;
    if (!embed || !element) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const report = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        postToParent({
          type: EMBED_MESSAGE.heightUpdate,
          height: embeddedHeight(element.scrollHeight, window.innerHeight),
        });
      }, HEIGHT_UPDATE_DEBOUNCE_MS);
    };
    const observer = new ResizeObserver(report);
    observer.observe(element);
    report();
    return () => {
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [embed, target]);
}

function colourStyle(colours: TMerchantColours, background: string | null): CSSProperties {
  return {
    '--primary': colours.primaryColour,
    '--primary-text': colours.primaryText,
    '--secondary': colours.secondaryColour,
    '--secondary-text': colours.secondaryText,
    ...(background ? { '--page-bg': background, background } : {}),
  } as CSSProperties;
}

/** /r/{consentId}: loads the consent and shows the screen its state calls for (spec §2). */
export function ConsentRoute() {
  const { consentId = '' } = useParams();
  const { search } = useLocation();
  const params = useMemo(() => parsePageParams(search), [search]);
  const query = useConsentQuery(consentId, params.clientId);
  const consent = query.data?.consent;
  const embedOrigins = query.data?.embedOrigins;
  const session = useSession();
  const productName = usePublicConfig().data?.productName;
  const rootRef = useRef<HTMLDivElement>(null);
  const successSent = useRef(false);

  useEmbedHeight(params.embed, rootRef);

  useEffect(() => {
    document.body.classList.toggle('embedded', params.embed);
  }, [params.embed]);

  useEffect(() => {
    if (!params.clientId && params.embed) {
      postToParent({
        type: EMBED_MESSAGE.consentFailed,
        consentId,
        error: 'Missing clientId parameter',
      });
    }
  }, [params.clientId, params.embed, consentId]);

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
  }, [params.embed, consent, embedOrigins]);

  const reportFailure = (error: string) =>
    postToParent({ type: EMBED_MESSAGE.consentFailed, consentId, error });

  let screen: React.ReactNode;
  if (!params.clientId) {
    screen = (
      <MissingClientIdScreen
        embed={params.embed}
        onReport={() => reportFailure('Missing clientId parameter')}
        onRetry={() => window.location.reload()}
      />
    );
  } else if (query.isPending) {
    screen = <LoadingScreen />;
  } else if (query.isError || !consent) {
    const message = loadErrorMessage(query.error);
    screen = (
      <ConsentNotFoundScreen
        message={message}
        embed={params.embed}
        retrying={query.isFetching}
        onReport={() => reportFailure(message)}
        onRetry={() => void query.refetch()}
      />
    );
  } else if (consent.status === 'granted') {
    screen = (
      <ConsentGrantedScreen
        consent={consent}
        embed={params.embed}
        onComplete={() =>
          postToParent(
            { type: EMBED_MESSAGE.consentCompleted, consentId: consent.consentId },
            embedOrigins ?? [],
          )
        }
      />
    );
  } else if (
    shouldShowAuthPrompt({ consent, signedIn: session.signedIn, isPublic: params.isPublic })
  ) {
    // spec §6: auth required or a form, not signed in, not public: the auth prompt (§2).
    screen = productName ? (
      <AuthPrompt
        consent={consent}
        productName={productName}
        onAuthenticated={() => void query.refetch()}
      />
    ) : (
      <LoadingScreen />
    );
  } else {
    screen = <ConsentOverview consent={consent} />;
  }
  const showHeader =
    consent &&
    consent.status !== 'granted' &&
    isConsentHeaderVisible(consent, { embed: params.embed });

  const colours = consent?.counterparty.merchantColours ?? DEFAULT_MERCHANT_COLOURS;
  return (
    <div
      ref={rootRef}
      className={['page', params.embed && 'embedded', params.fullScreen && 'full-screen']
        .filter(Boolean)
        .join(' ')}
      style={colourStyle(colours, params.background)}
    >
      <div className="card">
        {showHeader ? <ConsentHeader counterparty={consent.counterparty} /> : null}
        <main>{screen}</main>
      </div>
    </div>
  );
}
