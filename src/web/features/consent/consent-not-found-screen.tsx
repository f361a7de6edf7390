import { Button } from '../../ui/button';
import { ReportAndCloseButton } from './report-and-close';
import { StatusScreen } from './status-screen';

type TProps = {
  message: string;
  embed: boolean;
  retrying: boolean;
  onReport(): void;
  onRetry(): void;
};

/** spec §2 Consent Not Found: shows the load error. */
export function ConsentNotFoundScreen({ message, embed, retrying, onReport, onRetry }: TProps) {
  return (
    <StatusScreen
      tone="danger"
      title="Consent Not Found"
      actions={
        <>
          <Button onClick={onRetry} disabled={retrying} aria-busy={retrying}>
            Try Again
          </Button>
          {embed ? <ReportAndCloseButton label="Report Error & Close" onReport={onReport} /> : null}
        </>
      }
    >
      <p role="alert">{message}</p>
    </StatusScreen>
  );
}
