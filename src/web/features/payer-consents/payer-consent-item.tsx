import { useId, useRef, useState } from 'react';
import { canRevoke, payerConsentSummary } from '../../../domain/payer-consents';
import type { TPauseAction, TPayerConsent } from '../../../domain/schemas/payer-consents';
import { formatDateTime } from '../../ui/format-date';
import { MerchantLogo } from '../../ui/merchant-logo';
import type { TConsentRecordResponse } from '../../../domain/schemas/consent-record';
import { ConsentRecordDisclosure, DataSharingTerm } from './consent-record-details';
import { consentFacts, consentRefunds, dataShared, upcomingDebits } from './payer-consent-facts';
import { RevokeDialog } from './revoke-dialog';
import { PauseControl, PausedNote } from './pause-control';
import { useFocusAfterDialog } from './use-focus-after-dialog';

/** Only a consent with future payments has any to pause. */
const hasFuturePayments = (consent: TPayerConsent) =>
  consent.payments.some((p) => p.type === 'future');

type TItemProps = {
  consent: TPayerConsent;
  /** Signs the revocation with the passkey and sends it; rejects with what the payer reads. */
  revoke(consent: TPayerConsent): Promise<void>;
  /** Pauses or resumes its future payments; none where it cannot be (the receipt's page). */
  changePause?: ((consent: TPayerConsent, action: TPauseAction) => Promise<void>) | undefined;
  /** Confirms its data sharing for 12 more months; none where it cannot be (the receipt's page). */
  confirmDataSharing?: ((consent: TPayerConsent) => Promise<void>) | undefined;
  /** Its record, read already (the receipt's page); otherwise read when the payer opens it. */
  record?: Omit<TConsentRecordResponse, 'success'> | undefined;
};

/** One consent of the payer's list: whom, what was granted, from which accounts, and Revoke. */
export function PayerConsentItem({
  consent,
  revoke,
  changePause,
  confirmDataSharing,
  record,
}: TItemProps) {
  const titleId = useId();
  const [confirming, setConfirming] = useState(false);
  // Revoked from this page: the sentence saying what happened takes the focus the dialog had.
  const [justRevoked, setJustRevoked] = useState(false);
  const revokeButton = useRef<HTMLButtonElement>(null);
  const revokedNote = useRef<HTMLParagraphElement>(null);
  // Focus goes back to Revoke, or to the sentence that replaced it.
  useFocusAfterDialog(confirming, () => (justRevoked ? revokedNote.current : revokeButton.current));
  const summary = payerConsentSummary(consent);
  const merchant = consent.merchant.name;
  return (
    <li className="payer-consent">
      <article aria-labelledby={titleId}>
        <header className="payer-consent-head">
          <MerchantLogo name={merchant} image={consent.merchant.image} />
          <div className="payer-consent-title">
            <h2 id={titleId}>{merchant}</h2>
            <p className="muted">Granted on {formatDateTime(consent.grantedAt)}</p>
          </div>
          <span className={`status-badge ${consent.pausedAt ? 'paused' : consent.status}`}>
            {summary.statusLabel}
          </span>
        </header>
        {consentFacts(consent, summary)}
        {upcomingDebits(consent, merchant)}
        {consentRefunds(consent, merchant)}
        {dataShared(consent, merchant)}
        <DataSharingTerm consent={consent} confirm={confirmDataSharing} />
        <ConsentRecordDisclosure consentId={consent.consentId} given={record} />
        {justRevoked ? (
          <p className="revoked-note" role="status" tabIndex={-1} ref={revokedNote}>
            Revoked. Future payments to {merchant} have stopped and {merchant} has been told.
          </p>
        ) : null}
        <PausedNote consent={consent} />
        {canRevoke(consent) ? (
          <div className="actions">
            {changePause && hasFuturePayments(consent) ? (
              <PauseControl consent={consent} changePause={changePause} />
            ) : null}
            <button
              type="button"
              className="button secondary revoke"
              ref={revokeButton}
              onClick={() => setConfirming(true)}
            >
              Revoke<span className="visually-hidden"> consent to {merchant}</span>
            </button>
          </div>
        ) : null}
        {confirming ? (
          <RevokeDialog
            consent={consent}
            onRevoke={async () => {
              await revoke(consent);
              setConfirming(false);
              setJustRevoked(true);
            }}
            onClose={() => setConfirming(false)}
          />
        ) : null}
      </article>
    </li>
  );
}
