import type { Dispatch } from 'react';
import { PAGE_ERRORS } from '../../../domain/page-errors';
import { isPaymentFailure, isUnusableCardEnvelope } from '../../../domain/pay-now';
import type { TPayNowAction, TPayNowState, TStoredCard } from '../../../domain/pay-now-state';
import type { TEncryptedCard, TEncryptedField } from '../../../domain/schemas/card';
import { ApiError } from '../../api/api-error';
import { paymentsApi, type TPayer } from '../../api/payments';
import { forgetPinCard, keepPinCard } from '../../api/pin-card';
import { messageOf } from './pay-now-errors';

/** A card call's error as the screen hears it: the bank's refusal, or one the form must fix. */
const cardRefused = (error: unknown) => ({
  type: 'card_refused' as const,
  message: messageOf(error),
  paymentFailure: error instanceof ApiError && isPaymentFailure(error.code),
});

/** The card's calls (charge, PIN, OTP, retry), each told to the screen's reducer as it goes. */
export function useCardCharge(
  paymentId: string,
  payer: TPayer,
  state: TPayNowState,
  dispatch: Dispatch<TPayNowAction>,
) {
  const { signedIn } = payer;

  const sendCard = async (
    cardDetails: TEncryptedCard,
    saveCard: boolean,
    stored: TStoredCard | null,
  ) => {
    try {
      const answer = await paymentsApi.chargeCard(paymentId, payer, cardDetails, saveCard);
      // Kept for a reload at the PIN step, which then asks for the PIN alone.
      if (answer.requiresPIN && stored) keepPinCard(paymentId, stored);
      dispatch({ type: 'card_answered', answer });
    } catch (error) {
      dispatch({
        ...cardRefused(error),
        unusableEnvelope: error instanceof ApiError && isUnusableCardEnvelope(error.code),
      });
    }
  };

  const submitCard = (
    cardDetails: TEncryptedCard,
    saveCard: boolean,
    card?: { obfuscatedCard: string },
  ) => {
    const stored = card ? { cardDetails, saveCard, obfuscatedCard: card.obfuscatedCard } : null;
    dispatch({ type: 'card_submitted', card: stored, signedIn });
    return sendCard(cardDetails, saveCard, stored);
  };

  // 'Retry Payment', 'Try Again' and 'Pay with Card | {masked card}': the stored card again. From
  // 'Payment Failed' the reducer shows 'Retrying payment...'; from elsewhere, the line below.
  const retryCard = () => {
    if (state.card.resending) return;
    const stored = state.storedCard;
    dispatch({ type: 'retry_card' });
    if (!stored) return;
    dispatch({ type: 'card_submitted', card: null, signedIn });
    void sendCard(stored.cardDetails, stored.saveCard, stored);
  };

  // The PIN the card's issuer asked for, sealed by its step, sent beside the card's envelopes
  // that went with the charge (the stored card: a new card's, or the one sent again).
  const submitPin = async (encryptedPin: TEncryptedField) => {
    const stored = state.storedCard;
    if (!stored) {
      dispatch({
        type: 'card_refused',
        message: PAGE_ERRORS.NO_STORED_CARD_FOR_RETRY.message,
        paymentFailure: false,
      });
      return;
    }
    dispatch({ type: 'pin_submitted' });
    try {
      const cardDetails = { ...stored.cardDetails, encryptedPin };
      const answer = await paymentsApi.submitCardPin(paymentId, payer, cardDetails);
      dispatch({ type: 'card_answered', answer });
    } catch (error) {
      dispatch(cardRefused(error));
    } finally {
      forgetPinCard(paymentId);
    }
  };

  const verifyOtp = async (otp: string) => {
    dispatch({ type: 'otp_verifying' });
    try {
      const answer = await paymentsApi.completeCard(paymentId, payer, otp);
      dispatch({ type: 'otp_verified', answer });
    } catch (error) {
      dispatch({ type: 'otp_refused', message: messageOf(error) });
    }
  };

  return { submitCard, retryCard, submitPin, verifyOtp };
}

export type TCardCharge = ReturnType<typeof useCardCharge>;
