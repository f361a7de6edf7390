import { Button } from '../../ui/button';
import { BackToMerchant } from './consent-not-found-screen';
import { ReportAndCloseButton } from './report-and-close';
import { StatusScreen } from './status-screen';

type TProps = { embed: boolean; onReport(): void; onRetry(): void };

/**
 * spec §2 Missing Client ID: 'Report Error & Close' (embed only) and 'Try Again' (reloads). A
 * reload of the same address rarely helps, so the way on leads: embedded, 'Report Error & Close'
 * first; standalone, the payer is told to go back to the merchant.
 */
export function MissingClientIdScreen({ embed, onReport, onRetry }: TProps) {
  return (
    <StatusScreen
      tone="danger"
      title="Missing Client ID"
      actions={
        <>
          {embed ? <ReportAndCloseButton label="Report Error & Close" onReport={onReport} /> : null}
          <Button variant="secondary" onClick={onRetry}>
            Try Again
          </Button>
        </>
      }
    >
      <p role="alert">
        The clientId parameter is required in the URL. Please ensure the URL includes
        ?clientId=your_client_id
      </p>
      {embed ? null : <BackToMerchant />}
    </StatusScreen>
  );
}
