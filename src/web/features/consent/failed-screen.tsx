import { PART_FAILED_MESSAGE } from '../../../domain/page-errors';
import { TryAgainButton, useRetry } from '../../ui/part-boundary';
import { ReportAndCloseButton } from './report-and-close';
import { StatusScreen } from './status-screen';

/** The consent page's failure: spec §2 calls it the Consent Error. */
export const CONSENT_ERROR_TITLE = 'Consent Error';

export type TFailedScreenProps = {
  title: string;
  embed: boolean;
  onRetry(): Promise<void>;
  /** Embedded, 'Report Error & Close' tells the parent; without it, only 'Try Again'. */
  onReport?(message: string): void;
};

/**
 * A screen whose code did not come (a dropped connection) or could not be drawn (PartBoundary):
 * 'Something went wrong. Please try again.' with 'Try Again' (FailureBoundary's), and embedded,
 * 'Report Error & Close', which hands the payer back to the merchant's page.
 */
export function FailedScreen({ title, embed, onRetry, onReport }: TFailedScreenProps) {
  const retrying = useRetry(onRetry);
  return (
    <StatusScreen
      tone="danger"
      title={title}
      actions={
        <>
          <TryAgainButton {...retrying} />
          {embed && onReport ? (
            <ReportAndCloseButton
              label="Report Error & Close"
              onReport={() => onReport(PART_FAILED_MESSAGE)}
            />
          ) : null}
        </>
      }
    >
      <p role="alert">{PART_FAILED_MESSAGE}</p>
    </StatusScreen>
  );
}
