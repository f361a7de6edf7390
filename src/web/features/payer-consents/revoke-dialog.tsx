import { useEffect, useId, useRef, useState } from 'react';
import { revokeConsequences } from '../../../domain/payer-consents';
import type { TPayerConsent } from '../../../domain/schemas/payer-consents';
import { Button } from '../../ui/button';
import { FormError } from '../../ui/form-error';

type TRevokeDialogProps = {
  consent: TPayerConsent;
  /** Asks the passkey, then the server; rejects with what the payer should read. */
  onRevoke(): Promise<void>;
  onClose(): void;
};

/**
 * 'Revoke' confirmation: what stops and that the merchant is told, then the passkey prompt. A
 * modal <dialog>: focus stays inside while it is open, Escape closes it (not while the passkey
 * is asked), and the page puts focus back where it was.
 */
export function RevokeDialog({ consent, onRevoke, onClose }: TRevokeDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const merchant = consent.merchant.name;

  useEffect(() => {
    const node = dialog.current;
    node?.showModal();
    return () => node?.close();
  }, []);

  const revoke = () => {
    setBusy(true);
    setError(null);
    onRevoke().catch((failure: unknown) => {
      setBusy(false);
      setError(failure instanceof Error ? failure.message : String(failure));
    });
  };

  return (
    <dialog
      ref={dialog}
      className="revoke-dialog"
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
    >
      <h2 id={titleId}>Revoke your consent to {merchant}?</h2>
      <ul id={descriptionId} className="revoke-consequences">
        {revokeConsequences(merchant, consent.upcomingDebits.length).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <p className="muted">You will confirm with your passkey.</p>
      <FormError message={error} />
      <div className="actions">
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          Keep consent
        </Button>
        <Button className="danger" onClick={revoke} disabled={busy} aria-busy={busy}>
          {busy ? 'Getting your biometric approval...' : 'Revoke consent'}
        </Button>
      </div>
    </dialog>
  );
}
