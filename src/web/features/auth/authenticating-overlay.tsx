import { useEffect, useRef } from 'react';
import { Spinner } from '../../ui/spinner';

type TOverlayProps = {
  title: string;
  detail?: string | undefined;
};

/**
 * A busy layer over the card while the payer's authenticator works (spec §2 Auth prompt:
 * 'Authenticating...' / 'Please wait while we verify your identity'; §2 Overlays: 'Getting your
 * biometric approval...'). It is a live region, and takes focus so screen readers announce it.
 */
export function BusyOverlay({ title, detail }: TOverlayProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div ref={ref} className="auth-overlay" role="status" aria-live="polite" tabIndex={-1}>
      <Spinner />
      <p className="title">{title}</p>
      {detail ? <p className="detail">{detail}</p> : null}
    </div>
  );
}

/** spec §2 Auth prompt overlay; 'Re-authenticating...' replaces the title on a restart (§8). */
export function AuthenticatingOverlay({ status }: { status?: string | null }) {
  return (
    <BusyOverlay
      title={status ?? 'Authenticating...'}
      detail="Please wait while we verify your identity"
    />
  );
}

/** spec §2 Overlays: while the payer's passkey signs a grant. */
export function BiometricApprovalOverlay() {
  return <BusyOverlay title="Getting your biometric approval..." />;
}
