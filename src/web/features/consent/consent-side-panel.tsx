import { memo } from 'react';
import { authPromptItems } from '../../../domain/auth-prompt';
import { dataSharingChips } from '../../../domain/data-sharing';
import { formatNaira } from '../../../domain/money';
import { sidePanelDueText } from '../../../domain/payment-date';
import type { TConsent } from '../../../domain/schemas/consent';
import { shareConsentUrl } from '../../../domain/share-url';
import { usePageDocument } from '../../ui/document-context';
import { PartBoundary } from '../../ui/part-boundary';
import { preloadable } from '../../ui/preloadable';
import { Representative } from './representative';
import './consent-side-panel.css';

const ShareQr = preloadable(() => import('./consent-share-qr').then((module) => module.ShareQr));

/**
 * The QR code is a picture, not a control: the panel is taken over without its code (qrcode.react,
 * a third of the panel's), and the code comes when React reaches it. Until then what the server
 * drew stays; drawn in the browser, a box of its size holds its place. `memo`: a change above it
 * must not reach the waiting boundary, or React would draw it again from that box.
 */
const ShareQrCode = memo(function ShareQrCode({ url }: { url: string }) {
  return (
    // A QR code whose code did not come keeps its empty box: the rest of the panel still serves.
    <PartBoundary
      loading={<div className="qr-placeholder" />}
      failed={() => <div className="qr-placeholder" />}
    >
      <ShareQr url={url} />
    </PartBoundary>
  );
});

/**
 * The standalone desktop view's side panel (spec §2 Desktop side panel): the representative,
 * 'Share Consent' with a QR code of this page for a phone (embed=false, bg=FFFFFF, the clientId),
 * the total and the payments, or what else is asked, and whom to ask for changes.
 */
export function ConsentSidePanel({
  consent,
  clientId,
  paidHere,
}: {
  consent: TConsent;
  clientId: string;
  /** Payments this page saw completed, before the consent is read again. */
  paidHere: ReadonlySet<string>;
}) {
  const shareUrl = shareConsentUrl(usePageDocument().href, clientId);
  const total = consent.payments.reduce((sum, p) => sum + p.amount, 0);
  const shared = dataSharingChips(consent.dataSharing);
  return (
    <aside className="side-panel" aria-label="Consent summary">
      {consent.actOnBehalfOf ? <Representative rep={consent.actOnBehalfOf} /> : null}
      <section className="side-section" aria-labelledby="share-consent-title">
        <h2 id="share-consent-title" className="section-title">
          Share Consent
        </h2>
        <div className="qr">
          <ShareQrCode url={shareUrl} />
        </div>
        <p className="secondary-text">Scan to open this consent on your phone.</p>
      </section>
      <section className="side-section" aria-labelledby="side-summary-title">
        <h2 id="side-summary-title" className="section-title">
          {consent.payments.length > 0 ? 'Total amount' : 'Requirements'}
        </h2>
        {consent.payments.length > 0 ? (
          <>
            <p className="side-total">{formatNaira(total)}</p>
            <ul className="side-list">
              {consent.payments.map((payment) => (
                <li key={payment.paymentId}>
                  <span>
                    {payment.narration}
                    <span className="secondary-text">
                      {sidePanelDueText(payment, paidHere.has(payment.paymentId))}
                    </span>
                  </span>
                  <span className="amount">{formatNaira(payment.amount)}</span>
                </li>
              ))}
            </ul>
          </>
        ) : shared.length > 0 || consent.formId ? (
          <ul className="side-list">
            {authPromptItems(consent).map((ask) => (
              <li key={ask}>{ask}</li>
            ))}
            {consent.formId ? <li>Complete a form</li> : null}
          </ul>
        ) : (
          <p className="secondary-text">No specific actions required</p>
        )}
      </section>
      <p className="side-note">if you wish to change any info here, contact your representative</p>
    </aside>
  );
}
