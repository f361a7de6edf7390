import type { TPauseAction } from '../../../domain/schemas/payer-consents';
import { useSession } from '../../features/auth/use-session';
import { PayerConsentsPage } from '../../features/payer-consents/payer-consents-page';

// The passkey's part loads when the payer first revokes, not with the list.
const signRevocation = (consentId: string) =>
  import('../../features/auth/sign-grant').then((module) => module.signRevocation(consentId));

const signPause = (consentId: string, action: TPauseAction) =>
  import('../../features/auth/sign-grant').then((module) => module.signPause(consentId, action));

const signErasure = () =>
  import('../../features/auth/sign-grant').then((module) => module.signErasure());

const signReceiptRevocation = (token: string, consentId: string) =>
  import('../../features/auth/sign-receipt-revocation').then((module) =>
    module.signReceiptRevocation(token, consentId),
  );

/** /consents: the payer's consents (features/payer-consents), given the session and the passkey. */
export function PayerConsentsRoute() {
  const { signedIn } = useSession();
  return (
    <PayerConsentsPage
      signedIn={signedIn}
      signRevocation={signRevocation}
      signPause={signPause}
      signErasure={signErasure}
      signReceiptRevocation={signReceiptRevocation}
    />
  );
}
