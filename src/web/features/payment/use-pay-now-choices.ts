import { useRef, useTransition, type Dispatch } from 'react';
import { needsTransferAccount } from '../../../domain/pay-now-screen';
import { type TPayNowAction, type TPayNowState } from '../../../domain/pay-now-state';
import { CardSteps } from './card-steps-part';
import { loadCardViews, TransferDetailsView } from './pay-now-views';
import type { TPaymentCalls } from './use-payment-calls';

/** What the payer's choices on the screen do: a method picked, the terminal closed, details. */
export function usePayNowChoices(
  state: TPayNowState,
  dispatch: Dispatch<TPayNowAction>,
  calls: TPaymentCalls,
) {
  const terminalButton = useRef<HTMLButtonElement>(null);
  // 'Pay with Card': the methods stay, the button busy, until the form's code is here.
  const [openingCard, startOpeningCard] = useTransition();
  // Its code not come (a dropped connection): the card step says so, with 'Try Again'.
  const payWithCard = () =>
    startOpeningCard(async () => {
      await Promise.all([loadCardViews(), CardSteps.preload()]).catch(() => undefined);
      startOpeningCard(() => dispatch({ type: 'pay_with_card' }));
    });

  // The transfer's details load beside its account, behind the same 'Getting your transfer
  // account...'.
  const payByTransfer = () => {
    void TransferDetailsView.preload();
    dispatch({ type: 'pay_by_transfer' });
    if (needsTransferAccount(state, new Date())) calls.openTransfer.mutate();
  };

  const viewTransferDetails = () => {
    void TransferDetailsView.preload();
    dispatch({ type: 'view_transfer_details' });
    // A transfer another device started: its open account is asked for (the same one).
    if (!state.details) calls.openTransfer.mutate();
  };

  const closeTerminal = () => {
    dispatch({ type: 'terminal_closed' });
    // Back to the method that opened it, when it is still there (not once paid).
    setTimeout(() => terminalButton.current?.focus(), 0);
  };

  return {
    terminalButton,
    openingCard,
    payWithCard,
    payByTransfer,
    viewTransferDetails,
    closeTerminal,
  };
}
