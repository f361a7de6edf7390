import { BusyOverlay } from '../../ui/busy-overlay';

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
