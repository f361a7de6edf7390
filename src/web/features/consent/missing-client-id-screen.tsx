import { Button } from '../../ui/button';
import { ReportAndCloseButton } from './report-and-close';
import { StatusScreen } from './status-screen';

type TProps = { embed: boolean; onReport(): void; onRetry(): void };

/** spec §2 Missing Client ID. */
export function MissingClientIdScreen({ embed, onReport, onRetry }: TProps) {
  return (
    <StatusScreen
      tone="danger"
      title="Missing Client ID"
      actions={
        <>
          <Button onClick={onRetry}>Try Again</Button>
          {embed ? <ReportAndCloseButton label="Report Error & Close" onReport={onReport} /> : null}
        </>
      }
    >
      <p role="alert">
        The clientId parameter is required in the URL. Please ensure the URL includes
        ?clientId=your_client_id
      </p>
    </StatusScreen>
  );
}
