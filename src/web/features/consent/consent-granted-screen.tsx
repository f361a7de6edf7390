import { useId, useState } from 'react';
import { grantedMessage } from '../../../domain/consent-header';
import { dataSharingChips } from '../../../domain/data-sharing';
import { GRANTED_FUTURE_PREVIEW_COUNT } from '../../../domain/constants';
import { morePaymentsText } from '../../../domain/future-payment-summary';
import { confirmationsNote, paymentMethodLabel } from '../../../domain/granted-details';
import { formatNaira } from '../../../domain/money';
import { PAYER_CONSENTS_PATH } from '../../../domain/payer-pages';
import { dueDateLabel } from '../../../domain/payment-date';
import { countNoun } from '../../../domain/plural';
import type { TConsent } from '../../../domain/schemas/consent';
import { Button } from '../../ui/button';
import { formatDateTime } from '../../ui/format-date';
import { ReturnToMerchant } from './return-to-merchant';
import { StatusScreen } from './status-screen';

type TProps = {
  consent: TConsent;
  embed: boolean;
  /** A signed-in payer, who has a registered contact for the confirmations. */
  signedIn: boolean;
  /** Standalone with the merchant's return URL: where the payer is sent after this screen. */
  returnTo: string | null;
  onComplete(): void;
};

function GrantDetails({ consent }: { consent: TConsent }) {
  const collected = consent.payments.find((p) => p.type === 'immediate' && p.status === 'executed');
  const future = consent.payments.filter((p) => p.type === 'future');
  const shared = dataSharingChips(consent.dataSharing).map((chip) => chip.label);
  const more = future.length - GRANTED_FUTURE_PREVIEW_COUNT;
  return (
    <div className="details">
      {collected ? (
        <section aria-labelledby="collected-title">
          <h2 id="collected-title" className="section-title">
            Payment Collected
          </h2>
          <dl className="detail-grid">
            <dt>Amount</dt>
            <dd className="amount">{formatNaira(collected.amount)}</dd>
            <dt>Narration</dt>
            <dd>{collected.narration}</dd>
            <dt>Payment method</dt>
            <dd>{paymentMethodLabel(collected.origin)}</dd>
            <dt>Payment ID</dt>
            <dd className="payment-id">{collected.paymentId}</dd>
            {collected.executedAt ? (
              <>
                <dt>Executed</dt>
                <dd>{formatDateTime(collected.executedAt)}</dd>
              </>
            ) : null}
          </dl>
        </section>
      ) : null}
      {future.length > 0 ? (
        <section aria-labelledby="future-title">
          <h2 id="future-title" className="section-title">
            Future Payments Authorized
          </h2>
          <p>{countNoun(future.length, 'payment')}</p>
          <ul className="list">
            {future.slice(0, GRANTED_FUTURE_PREVIEW_COUNT).map((p) => (
              <li key={p.paymentId}>
                <span className="amount">{formatNaira(p.amount)}</span>
                <span className="secondary-text">{dueDateLabel(p.dueDate)}</span>
              </li>
            ))}
          </ul>
          {more > 0 ? <p className="muted">{morePaymentsText(more)}</p> : null}
          <p className="muted">You'll be notified before each debit.</p>
        </section>
      ) : null}
      {shared.length > 0 ? (
        <section aria-labelledby="shared-title">
          <h2 id="shared-title" className="section-title">
            Data Shared
          </h2>
          <ul className="chips">
            {shared.map((label) => (
              <li key={label} className="chip">
                {label}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

/** spec §2 Consent Granted. Details are always shown standalone, behind a toggle when embedded. */
export function ConsentGrantedScreen({ consent, embed, signedIn, returnTo, onComplete }: TProps) {
  const confirmations = confirmationsNote(signedIn);
  const [showDetails, setShowDetails] = useState(false);
  const detailsId = useId();
  return (
    <StatusScreen tone="success" title="Consent Granted">
      <p>{grantedMessage(consent.counterparty.name)}</p>
      {embed ? (
        <Button
          variant="link"
          aria-expanded={showDetails}
          aria-controls={detailsId}
          onClick={() => setShowDetails((v) => !v)}
        >
          {showDetails ? 'Hide Details' : 'View Details'}
        </Button>
      ) : null}
      <div id={detailsId} hidden={embed && !showDetails} className="details">
        <GrantDetails consent={consent} />
      </div>
      <p className="footer-note">
        Granted on {consent.grantedAt ? formatDateTime(consent.grantedAt) : 'Just now'}
      </p>
      {confirmations ? <p className="footer-note">{confirmations}</p> : null}
      {signedIn ? (
        <p className="footer-note">
          You can revoke it at any time from{' '}
          {/* Embedded, the payer's page opens beside the merchant's, which stays where it is. */}
          <a href={PAYER_CONSENTS_PATH} {...(embed ? { target: '_blank', rel: 'noopener' } : {})}>
            Your consents
          </a>
          .
        </p>
      ) : null}
      {embed ? (
        <div className="actions">
          <Button onClick={onComplete}>Complete &amp; Close</Button>
        </div>
      ) : null}
      {returnTo ? (
        <ReturnToMerchant address={returnTo} merchantName={consent.counterparty.name} />
      ) : null}
    </StatusScreen>
  );
}
