import { useEffect, useRef } from 'react';
import { Spinner } from './spinner';
import './busy-overlay.css';

type TOverlayProps = {
  title: string;
  detail?: string | undefined;
};

/**
 * A busy layer over the card while the payer's authenticator or the server works (spec §2 Auth
 * prompt: 'Authenticating...' / 'Please wait while we verify your identity'; §2 Overlays:
 * 'Getting your biometric approval...', 'Processing consent...', 'Completing consent...'). It is
 * a live region, and takes focus so screen readers announce it.
 */
export function BusyOverlay({ title, detail }: TOverlayProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div ref={ref} className="busy-overlay" role="status" aria-live="polite" tabIndex={-1}>
      <Spinner />
      <p className="title">{title}</p>
      {detail ? <p className="detail">{detail}</p> : null}
    </div>
  );
}
