import { Button } from '../../ui/button';

type TOtpEndedViewProps = {
  /** Why the bank refused the OTP, in the catalogue's words. */
  error: string | null;
  onRetry(): void;
};

/**
 * 'Verify Payment' once the bank refused the OTP (spec §2 OTP screen): the refusal ended that
 * charge, so nothing is left to verify; 'Retry Payment' charges the card again, with a new OTP.
 */
export function OtpEndedView({ error, onRetry }: TOtpEndedViewProps) {
  return (
    <div className="otp-ended">
      <h2 className="section-title">Verify Payment</h2>
      <p className="form-error" role="alert">
        {error}
      </p>
      <p>This payment was not made. Retry to get a new OTP from your bank.</p>
      <div className="actions">
        <Button onClick={onRetry}>Retry Payment</Button>
      </div>
    </div>
  );
}
