import { useMutation, type UseQueryResult } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useMemo, useRef } from 'react';
import { CONSENT_REFRESH_AFTER_PAYMENT_MS } from '../../../domain/constants';
import { afterPaymentPrompt } from '../../../domain/after-payment';
import { grantOutcome } from '../../../domain/grant-outcome';
import { isGrantedByPayment, paymentGrantsConsent } from '../../../domain/granted-by-payment';
import { payNowGrantRequest } from '../../../domain/pay-now';
import type { TPayNowState } from '../../../domain/pay-now-state';
import type { TPaymentStateResponse } from '../../../domain/schemas/payment';
import { paymentsApi } from '../../api/payments';
import type { TPayNowScreenProps } from '../../contracts/consent-slots';
import { messageOf } from './pay-now-errors';

type TGrantInput = Pick<
  TPayNowScreenProps,
  'consent' | 'payment' | 'signedIn' | 'signGrant' | 'onGranted' | 'onFailed' | 'flow'
> & {
  state: TPayNowState;
  /** The payment's read, which names the account a payment made before the page came from. */
  read: UseQueryResult<TPaymentStateResponse>;
};

/**
 * The consent's grant once the payment is completed: sent by itself, unless the prompt after the
 * payment comes first; its answer told once (granted, the page reads the consent again; failed,
 * the parent hears).
 */
export function usePayNowGrant({
  consent,
  payment,
  signedIn,
  signGrant,
  onGranted,
  onFailed,
  flow,
  state,
  read,
}: TGrantInput) {
  const paid = payment.status === 'executed';
  const { phase } = state.status;
  const grant = useMutation({
    mutationFn: async () => {
      const request = flow
        ? flow.grantRequest({ type: state.method, paymentId: payment.paymentId })
        : payNowGrantRequest(consent, payment, state.method, signedIn);
      // A payment that granted the consent by itself (paymentGrantsConsent) leaves nothing to
      // sign: the server answers it granted, so a payer with no passkey, or one that may not
      // approve payments yet, pays by transfer or card all the same.
      if (!signedIn || paymentGrantsConsent(consent)) {
        return paymentsApi.grant(consent.consentId, request);
      }
      const signed = await signGrant(consent.consentId, request);
      return paymentsApi.grant(consent.consentId, {
        ...request,
        signature: { nonce: signed.nonce, response: signed.response },
      });
    },
    onError: (error) => onFailed(messageOf(error)),
  });
  const { mutate: sendGrant } = grant;
  const prompt =
    phase === 'completed' && state.origin
      ? afterPaymentPrompt({
          origin: state.origin,
          signedIn,
          signedInWhenPaid: state.signedInWhenPaid,
          holdsChargeToken: paymentsApi.chargeTokenOf(payment.paymentId) !== null,
          // Granted by the payer's grant; one its payment granted still offers the prompt (item 6).
          granted: consent.status === 'granted' && !isGrantedByPayment(consent),
          settled: state.prompt.settled,
        })
      : null;
  const granting = useRef(false);
  // Paid before the page opened, the prompt waits for the read that names the account paid from,
  // until the reducer has it (the read arrives a render before the state it makes).
  const awaitingRead =
    paid &&
    state.origin !== null &&
    !read.isError &&
    (read.data === undefined || (read.data.payerBank !== null && state.payerBank === null));
  useEffect(() => {
    if (phase !== 'completed' || granting.current || prompt || awaitingRead) return;
    granting.current = true;
    sendGrant();
  }, [phase, sendGrant, prompt, awaitingRead]);
  const outcome = useMemo(
    () => (grant.data ? grantOutcome(consent, grant.data) : null),
    [consent, grant.data],
  );
  const tellOutcome = useEffectEvent((answer: NonNullable<typeof grant.data>) => {
    const told = grantOutcome(consent, answer);
    if (told.kind === 'success') setTimeout(onGranted, CONSENT_REFRESH_AFTER_PAYMENT_MS);
    else onFailed(told.parentError);
  });
  useEffect(() => {
    if (grant.data) tellOutcome(grant.data);
  }, [grant.data]);

  const grantError = grant.error
    ? messageOf(grant.error)
    : outcome?.kind === 'failed'
      ? outcome.message
      : null;
  return { grant, prompt, grantError };
}
