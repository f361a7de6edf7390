import type { Dispatch } from 'react';
import type { TPayNowAction, TPayNowState } from '../../../domain/pay-now-state';
import { Button } from '../../ui/button';
import { PartBoundary } from '../../ui/part-boundary';
import { messageOf } from './pay-now-errors';
import { GettingAccount } from './pay-now-loading';
import { TransferDetailsView } from './pay-now-views';
import type { TPaymentCalls } from './use-payment-calls';

type TTransferStepProps = {
  state: TPayNowState;
  calls: TPaymentCalls;
  dispatch: Dispatch<TPayNowAction>;
};

/** Pay by Transfer: the one-time account's details once it is open, or why it did not open. */
export function TransferStep({ state, calls, dispatch }: TTransferStepProps) {
  const { openTransfer, confirmTransfer } = calls;
  const { details } = state;
  if (details && !openTransfer.isPending) {
    return (
      <PartBoundary loading={<GettingAccount />}>
        <TransferDetailsView
          key={details.accountNumber}
          details={details}
          ended={state.detailsEnded}
          confirming={confirmTransfer.isPending}
          renewing={openTransfer.isPending}
          error={
            confirmTransfer.error
              ? messageOf(confirmTransfer.error)
              : openTransfer.error
                ? messageOf(openTransfer.error)
                : null
          }
          onConfirm={() => confirmTransfer.mutate()}
          onRenew={() => openTransfer.mutate()}
          onBack={() => dispatch({ type: 'back' })}
        />
      </PartBoundary>
    );
  }
  if (openTransfer.isError) {
    return (
      <div role="alert" className="failure">
        <p>{messageOf(openTransfer.error)}</p>
        <Button onClick={() => openTransfer.mutate()}>Try Again</Button>
      </div>
    );
  }
  return <GettingAccount />;
}
