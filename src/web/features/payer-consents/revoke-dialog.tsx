import { revokeConsequences } from '../../../domain/payer-consents';
import type { TPayerConsent } from '../../../domain/schemas/payer-consents';
import { ConfirmDialog } from './confirm-dialog';

type TRevokeDialogProps = {
  consent: TPayerConsent;
  /** Asks the passkey, then the server; rejects with what the payer should read. */
  onRevoke(): Promise<void>;
  onClose(): void;
};

/** 'Revoke' confirmation: what stops and that the merchant is told, then the passkey prompt. */
export function RevokeDialog({ consent, onRevoke, onClose }: TRevokeDialogProps) {
  const merchant = consent.merchant.name;
  return (
    <ConfirmDialog
      title={`Revoke your consent to ${merchant}?`}
      keepLabel="Keep consent"
      confirmLabel="Revoke consent"
      busyLabel="Getting your biometric approval..."
      onConfirm={onRevoke}
      onClose={onClose}
    >
      <ul className="revoke-consequences">
        {revokeConsequences(merchant, consent.upcomingDebits.length).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <p className="muted">You will confirm with your passkey.</p>
    </ConfirmDialog>
  );
}
