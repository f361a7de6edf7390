import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, type ReactNode, type Ref } from 'react';
import { fullScreenCardBackground, readableMerchantColours } from '../../../domain/colour-contrast';
import { DEFAULT_MERCHANT_COLOURS } from '../../../domain/constants';
import { parsePageParams, type TPageParams } from '../../../domain/page-params';
import type { TConsentReadResponse, TMerchantColours } from '../../../domain/schemas/consent';
import { consentQueryKey } from '../../api/query-keys';
import { usePageDocument } from '../../ui/document-context';
import { ScreenMain } from '../../ui/screen-main';
import { PageSettledMark } from '../../page-settled';
import { LoadingScreen } from './loading-screen';
import { FailedScreen, type TFailedScreenProps } from './failed-screen';

/** A value of the page's theme: a colour as the domain gives it (hex), nothing that could end a rule. */
const THEME_VALUE = /^#[0-9a-f]{3,8}$/i;

/**
 * The page's colours as one CSS rule: the merchant's, readable on the page, and the URL's
 * background. A rule in a <style> with the CSP nonce rather than a style attribute, which the
 * page's CSP refuses in the server's HTML (src/web/server-render.tsx).
 */
function themeRule(
  merchant: TMerchantColours,
  background: string | null,
  fullScreen: boolean,
): string {
  const colours = readableMerchantColours(merchant);
  const card = fullScreen ? fullScreenCardBackground(background) : null;
  const declarations: [string, string | null][] = [
    ['--surface', card],
    ['--primary', colours.primaryColour],
    ['--primary-text', colours.primaryText],
    ['--primary-on-page', colours.primaryOnPage],
    ['--secondary', colours.secondaryColour],
    ['--secondary-text', colours.secondaryText],
    ['--page-bg', background],
    ['background', background],
  ];
  const body = declarations
    .filter((entry): entry is [string, string] => entry[1] !== null && THEME_VALUE.test(entry[1]))
    .map(([name, value]) => `${name}:${value}`)
    .join(';');
  return `.page{${body}}`;
}

type TFrameProps = {
  params: TPageParams;
  /** The merchant's colours once the consent is known; the defaults until then. */
  colours?: TMerchantColours | undefined;
  ref?: Ref<HTMLDivElement>;
  children: ReactNode;
  /** Beside the card: the standalone desktop view's side panel (spec §2). */
  aside?: ReactNode;
};

/**
 * The consent page's page and card, in the merchant's colours and the URL's background, embed
 * and full-screen modes (spec §2 query parameters). Every state of the page sits in it, so the
 * first paint and the loaded consent share one layout.
 */
export function ConsentPageFrame({ params, colours, ref, children, aside }: TFrameProps) {
  const { nonce } = usePageDocument();
  useEffect(() => {
    document.body.classList.toggle('embedded', params.embed);
  }, [params.embed]);
  return (
    <div
      ref={ref}
      className={[
        'page',
        params.embed && 'embedded',
        params.fullScreen && 'full-screen',
        aside && 'with-aside',
      ]
        .filter(Boolean)
        .join(' ')}
    >
      <style nonce={nonce}>
        {themeRule(colours ?? DEFAULT_MERCHANT_COLOURS, params.background, params.fullScreen)}
      </style>
      <div className="card">{children}</div>
      {aside}
    </div>
  );
}

/**
 * The page's first paint while the rest of the consent page loads (in parallel with the consent
 * itself, which the server asked the browser to fetch already): the Loading screen (spec §2), in
 * the frame the loaded page will have.
 */
export function ConsentLoadingPage({ search }: { search: string }) {
  const params = useMemo(() => parsePageParams(search), [search]);
  return (
    <ConsentPageFrame params={params}>
      <ScreenMain>
        <LoadingScreen />
      </ScreenMain>
    </ConsentPageFrame>
  );
}

/**
 * A page whose code did not come or could not be drawn, in the frame the page would have had: in
 * the merchant's colours when the consent is known (the answers the server drew it from).
 */
export function PageFailed({
  search,
  consentId,
  ...failed
}: { search: string; consentId?: string } & Omit<TFailedScreenProps, 'embed'>) {
  const params = useMemo(() => parsePageParams(search), [search]);
  const queryClient = useQueryClient();
  const drawnFrom = consentId
    ? queryClient.getQueryData<TConsentReadResponse>(
        consentQueryKey(consentId, params.clientId ?? ''),
      )
    : undefined;
  return (
    <ConsentPageFrame params={params} colours={drawnFrom?.consent.counterparty.merchantColours}>
      <ScreenMain>
        <FailedScreen embed={params.embed} {...failed} />
        {/* What the payer goes on with: a tap held on the drawn page is given here. */}
        <PageSettledMark settled />
      </ScreenMain>
    </ConsentPageFrame>
  );
}
