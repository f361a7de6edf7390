import { Spinner } from '../../ui/spinner';

/** 'Getting your transfer account...', while the transfer's account or its details load. */
export function GettingAccount() {
  return (
    <p className="loading-line" role="status">
      <Spinner small /> Getting your transfer account...
    </p>
  );
}

/**
 * A card step reached without the payer's 'Pay with Card' (a reload at the OTP, a retry with no
 * card kept): its code is still on the way.
 */
export function CardStepLoading() {
  return (
    <p className="loading-line" role="status">
      <Spinner small />
    </p>
  );
}
