import { Button } from '../../ui/button';
import { ReportAndCloseButton } from './report-and-close';
import { StatusScreen } from './status-screen';

type TProps = {
  message: string;
  /** Reading again may succeed (src/domain/consent-load-error.ts); a refusal answers the same. */
  retryable: boolean;
  embed: boolean;
  retrying: boolean;
  onReport(): void;
  onRetry(): void;
};

/**
 * spec §2 Consent Not Found: the load error, 'Report Error & Close' (embed only) and 'Try Again'.
 * Where a new read cannot succeed (a refusal answers the same every time) the way on leads and
 * 'Try Again' steps back: embedded, 'Report Error & Close' hands the payer back to the merchant's
 * page; standalone, the payer is told to go back to the merchant.
 */
export function ConsentNotFoundScreen({
  message,
  retryable,
  embed,
  retrying,
  onReport,
  onRetry,
}: TProps) {
  const retry = (
    <Button
      variant={retryable ? 'primary' : 'secondary'}
      onClick={onRetry}
      disabled={retrying}
      aria-busy={retrying}
    >
      Try Again
    </Button>
  );
  const report = embed ? (
    <ReportAndCloseButton label="Report Error & Close" onReport={onReport} />
  ) : null;
  return (
    <StatusScreen
      tone="danger"
      title="Consent Not Found"
      actions={
        retryable ? (
          <>
            {retry}
            {report}
          </>
        ) : (
          <>
            {report}
            {retry}
          </>
        )
      }
    >
      <p role="alert">{message}</p>
      {!retryable && !embed ? <BackToMerchant /> : null}
    </StatusScreen>
  );
}

/** Standalone, a link that cannot open a consent: what the payer can do instead. */
export function BackToMerchant() {
  return (
    <p className="secondary-text">
      This link cannot open the consent. Go back to the merchant who sent it to you and open the
      consent again from their page or message.
    </p>
  );
}
