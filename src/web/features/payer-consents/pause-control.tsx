import { useRef, useState } from 'react';
import { PAUSED_NOTE } from '../../../domain/debit-notices';
import type { TPauseAction, TPayerConsent } from '../../../domain/schemas/payer-consents';
import { formatDateTime } from '../../ui/format-date';
import { ConfirmDialog } from './confirm-dialog';
import { useFocusAfterDialog } from './use-focus-after-dialog';

type TPauseControlProps = {
  consent: TPayerConsent;
  /** Signs the pause or resume with the passkey and sends it; rejects with what the payer reads. */
  changePause(consent: TPayerConsent, action: TPauseAction): Promise<void>;
};

/** What an active consent whose payments are paused says of it, and since when. */
export function PausedNote({ consent }: { consent: TPayerConsent }) {
  if (!consent.pausedAt || consent.status !== 'granted') return null;
  return (
    <p className="paused-note" role="status">
      {PAUSED_NOTE} Since {formatDateTime(consent.pausedAt)}.
    </p>
  );
}

/**
 * Pause or resume an active consent's future payments (docs/payer-consents.md "Pause and
 * resume"): what it does, then the passkey. While paused, the note saying so and since when.
 */
export function PauseControl({ consent, changePause }: TPauseControlProps) {
  const [confirming, setConfirming] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  useFocusAfterDialog(confirming, () => button.current);
  const merchant = consent.merchant.name;
  const action: TPauseAction = consent.pausedAt ? 'resume' : 'pause';
  return (
    <>
      <button
        type="button"
        className="button secondary"
        ref={button}
        onClick={() => setConfirming(true)}
      >
        {action === 'pause' ? 'Pause payments' : 'Resume payments'}
        <span className="visually-hidden"> to {merchant}</span>
      </button>
      {confirming ? (
        <ConfirmDialog
          title={
            action === 'pause'
              ? `Pause your payments to ${merchant}?`
              : `Resume your payments to ${merchant}?`
          }
          keepLabel="Not now"
          confirmLabel={action === 'pause' ? 'Pause payments' : 'Resume payments'}
          busyLabel="Getting your biometric approval..."
          onConfirm={async () => {
            await changePause(consent, action);
            setConfirming(false);
          }}
          onClose={() => setConfirming(false)}
        >
          <p>
            {action === 'pause'
              ? `${merchant} will collect nothing while your payments are paused. A payment that falls due meanwhile is skipped, and ${merchant} is told.`
              : `${merchant} may collect your future payments again. You will get an SMS at least a day before each one.`}
          </p>
          <p className="muted">You will confirm with your passkey.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
