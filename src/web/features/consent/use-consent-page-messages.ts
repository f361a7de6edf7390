import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { standalonePageTitle } from '../../../domain/consent-header';
import { EMBED_MESSAGE } from '../../../domain/embed-message-names';
import type { TPageParams } from '../../../domain/page-params';
import { PAGE_ERRORS } from '../../../domain/page-errors';
import type { TConsent } from '../../../domain/schemas/consent';
import type { TEmbedReports, TPostToParent } from '../../contracts/consent-slots';
import { useEmbedHeight } from './use-embed-height';
import { useEmbedReports } from './use-embed-reports';

type TPageMessages = {
  params: TPageParams;
  consentId: string;
  consent: TConsent | undefined;
  embedOrigins: readonly string[] | undefined;
  postToParent: TPostToParent;
  rootRef: RefObject<HTMLDivElement | null>;
};

/** What the page tells by itself: its height, the embed protocol's messages (spec §7), its tab. */
export function useConsentPageMessages(page: TPageMessages) {
  const { params, consentId, consent, embedOrigins, postToParent, rootRef } = page;
  const reportHeight = useCallback(
    (height: number) => postToParent({ type: EMBED_MESSAGE.heightUpdate, height }),
    [postToParent],
  );
  useEmbedHeight(params.embed, rootRef, reportHeight);
  useMissingClientIdReport(params, consentId, postToParent);
  useStandaloneTab(params.embed, consent);
  useConsentDataReport(params.embed, consent, embedOrigins, postToParent);
  useConsentSuccessReport(params.embed, consent, embedOrigins, postToParent);
}

/** Embedded without a clientId: the parent hears the page cannot load. */
function useMissingClientIdReport(
  params: TPageParams,
  consentId: string,
  postToParent: TPostToParent,
) {
  useEffect(() => {
    if (!params.clientId && params.embed) {
      postToParent({
        type: EMBED_MESSAGE.consentFailed,
        consentId,
        error: PAGE_ERRORS.MISSING_CLIENT_ID_PARAMETER.message,
      });
    }
  }, [params.clientId, params.embed, consentId, postToParent]);
}

/** Standalone: the tab carries the merchant's name and image (spec §2 Routes). */
function useStandaloneTab(embed: boolean, consent: TConsent | undefined) {
  useEffect(() => {
    if (embed || !consent) return;
    document.title = standalonePageTitle(consent.counterparty.name);
    if (consent.counterparty.image) {
      const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
      if (icon) icon.href = consent.counterparty.image;
    }
  }, [embed, consent]);
}

/** spec §7: the parent of a registered origin gets the consent once it has loaded. */
function useConsentDataReport(
  embed: boolean,
  consent: TConsent | undefined,
  embedOrigins: readonly string[] | undefined,
  postToParent: TPostToParent,
) {
  const dataSent = useRef<string | null>(null);
  useEffect(() => {
    if (!embed || !consent || dataSent.current === consent.consentId) return;
    if (
      postToParent({ type: EMBED_MESSAGE.consentData, consentData: consent }, embedOrigins ?? [])
    ) {
      dataSent.current = consent.consentId;
    }
  }, [embed, consent, embedOrigins, postToParent]);
}

/** spec §4: a granted status tells the parent once. */
function useConsentSuccessReport(
  embed: boolean,
  consent: TConsent | undefined,
  embedOrigins: readonly string[] | undefined,
  postToParent: TPostToParent,
) {
  const successSent = useRef(false);
  useEffect(() => {
    if (!embed || consent?.status !== 'granted' || successSent.current) return;
    successSent.current = postToParent(
      { type: EMBED_MESSAGE.consentSuccess, consentData: consent },
      embedOrigins ?? [],
    );
  }, [embed, consent, embedOrigins, postToParent]);
}

/**
 * Our messages besides the spec's (the step shown, the payment's status, a decline), and the
 * payments completed here, which the side panel shows paid before the consent is read again.
 */
export function usePaymentReports(
  embed: boolean,
  consentId: string,
  embedOrigins: readonly string[] | undefined,
  postToParent: TPostToParent,
) {
  const embedReports = useEmbedReports(embed, consentId, embedOrigins, postToParent);
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
  return { reports, paidHere };
}
