import { declinedConsentMessage } from '../../../domain/payer-consents';
import type { TConsent } from '../../../domain/schemas/consent';
import { Button } from '../../ui/button';
import { ReportAndCloseButton } from './report-and-close';
import { ReturnToMerchant } from './return-to-merchant';
import { StatusScreen } from './status-screen';

type TProps = {
  consent: TConsent;
  embed: boolean;
  /** Standalone with the merchant's return URL: where the payer is sent after this screen. */
  returnTo: string | null;
  /** Embedded: tells the parent the consent was declined, which closes the frame. */
  onClose(): void;
};

/**
 * A consent its payer declined (spec §4 'Decline'): it is over, says so plainly, and lets the
 * payer leave: embedded, 'Close' hands them back to the merchant's page; standalone it closes the
 * window ('Decline closes the window') or, where the browser keeps it open, goes back to the page
 * the payer came from.
 */
export function ConsentDeclinedScreen({ consent, embed, returnTo, onClose }: TProps) {
  return (
    <StatusScreen
      tone="danger"
      title="Consent Declined"
      actions={
        embed ? (
          <ReportAndCloseButton label="Close" onReport={onClose} />
        ) : returnTo ? null : (
          <Button
            variant="secondary"
            onClick={() => {
              window.close();
              history.back();
            }}
          >
            Close
          </Button>
        )
      }
    >
      <p>{declinedConsentMessage(consent.counterparty.name)}</p>
      {returnTo ? (
        <ReturnToMerchant address={returnTo} merchantName={consent.counterparty.name} />
      ) : null}
    </StatusScreen>
  );
}
