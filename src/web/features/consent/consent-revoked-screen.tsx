import { revokedConsentMessage } from '../../../domain/payer-consents';
import type { TConsent } from '../../../domain/schemas/consent';
import { StatusScreen } from './status-screen';

/** A consent its payer revoked (docs/payer-consents.md): it is over, and says so. */
export function ConsentRevokedScreen({ consent }: { consent: TConsent }) {
  return (
    <StatusScreen tone="danger" title="Consent Revoked">
      <p>{revokedConsentMessage(consent.counterparty.name)}</p>
    </StatusScreen>
  );
}
