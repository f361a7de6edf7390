import { BackToMerchant } from './consent-not-found-screen';
import { ReportAndCloseButton } from './report-and-close';
import { StatusScreen } from './status-screen';

type TProps = { embed: boolean; onReport(): void };

/**
 * spec §2 Missing Client ID. A reload of the same address cannot succeed, so the screen offers
 * the way on instead of 'Try Again' (issue 29 item 8): embedded, 'Report Error & Close';
 * standalone, going back to the merchant.
 */
export function MissingClientIdScreen({ embed, onReport }: TProps) {
  return (
    <StatusScreen
      tone="danger"
      title="Missing Client ID"
      actions={
        embed ? <ReportAndCloseButton label="Report Error & Close" onReport={onReport} /> : null
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
