import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button } from '../../ui/button';
import { FormError } from '../../ui/form-error';

type TConfirmDialogProps = {
  title: string;
  /** What the payer is told before confirming (the dialog's description). */
  children: ReactNode;
  keepLabel: string;
  confirmLabel: string;
  /** Shown on the confirm button while `onConfirm` runs. */
  busyLabel: string;
  /** Does it; rejects with what the payer should read. */
  onConfirm(): Promise<void>;
  onClose(): void;
};

/**
 * A confirmation of something that cannot be undone (revoking a consent, removing a passkey). A
 * modal <dialog>: focus starts on the button that keeps things as they are and stays inside while
 * it is open, Escape closes it (not while it is busy), and the page puts focus back where it was.
 */
export function ConfirmDialog({
  title,
  children,
  keepLabel,
  confirmLabel,
  busyLabel,
  onConfirm,
  onClose,
}: TConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const node = dialog.current;
    node?.showModal();
    return () => node?.close();
  }, []);

  const confirm = () => {
    setBusy(true);
    setError(null);
    onConfirm().catch((failure: unknown) => {
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
      <h2 id={titleId}>{title}</h2>
      <div id={descriptionId} className="confirm-description">
        {children}
      </div>
      <FormError message={error} />
      <div className="actions">
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          {keepLabel}
        </Button>
        <Button className="danger" onClick={confirm} disabled={busy} aria-busy={busy}>
          {busy ? busyLabel : confirmLabel}
        </Button>
      </div>
    </dialog>
  );
}
