import { useMutation } from '@tanstack/react-query';
import type { Dispatch } from 'react';
import type { TPayNowAction } from '../../../domain/pay-now-state';
import { paymentsApi, type TPayer } from '../../api/payments';

/** The transfer's calls (open its account, 'I have made the transfer') and 3-D Secure's cancel. */
export function usePaymentCalls(
  paymentId: string,
  payer: TPayer,
  dispatch: Dispatch<TPayNowAction>,
) {
  const openTransfer = useMutation({
    mutationFn: () => paymentsApi.openTransfer(paymentId, payer),
    onSuccess: (answer) => dispatch({ type: 'transfer_opened', details: answer.transferDetails }),
  });
  const confirmTransfer = useMutation({
    mutationFn: () => paymentsApi.confirmTransfer(paymentId, payer),
    onSuccess: (answer) => dispatch({ type: 'transfer_confirmed', status: answer.status }),
  });
  const cancelThreeDs = useMutation({
    mutationFn: () => paymentsApi.cancelAttempt(paymentId, payer),
    onSuccess: (answer) => dispatch({ type: 'three_ds_cancelled', attempt: answer.attempt }),
  });
  return { openTransfer, confirmTransfer, cancelThreeDs };
}

export type TPaymentCalls = ReturnType<typeof usePaymentCalls>;
