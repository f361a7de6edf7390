import { useCallback, useEffect, useEffectEvent, useReducer, useRef, useState } from 'react';
import {
  APPROVAL_NOT_GIVEN_MESSAGE,
  approvedOriginAccount,
  consentFlowGrantRequest,
  consentFlowReducer,
  initialConsentFlow,
  type TConsentFlowAction,
  type TConsentFlowState,
  type TGrantPhase,
  type TSignatureBlock,
} from '../../../domain/consent-flow';
import { isApprovalNotGiven } from '../../../domain/auth-failure';
import { GRANT_SUCCESS_SCREEN_MS } from '../../../domain/constants';
import { debitReport } from '../../../domain/embed-payment-report';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import { grantOutcome } from '../../../domain/grant-outcome';
import type { TConsent } from '../../../domain/schemas/consent';
import type { TUserAccount } from '../../../domain/schemas/user-account';
import { ApiError, isApiError } from '../../api/api-error';
import { consentApi } from '../../api/consent-calls';
import { paymentsApi, usePaymentQuery } from '../../api/payments';
import type { TConsentScreens, TEmbedReports } from '../../contracts/consent-slots';

const messageOf = (error: unknown) =>
  error instanceof ApiError ? error.message : ERROR_CATALOGUE.CONSENT_GRANT_FAILED.message;

/**
 * A grant the payer's passkey could not sign: none yet, none on this device
 * (the browser's prompt ended without one), or one that must wait.
 */
const signatureBlockOf = (error: unknown): TSignatureBlock | undefined =>
  isApiError(error, 'PASSKEY_REQUIRED')
    ? 'no_passkey'
    : isApiError(error, 'PASSKEY_NOT_YET_TRUSTED')
      ? 'passkey_waiting'
      : isApprovalNotGiven(error)
        ? 'not_on_device'
        : undefined;

/** Moves the flow; returns the state it moved to. */
export type TAct = (action: TConsentFlowAction) => TConsentFlowState;

/**
 * The flow's state, and `act`, which moves it and returns the state the next call decides on,
 * so a double press starts one grant (like the panel's).
 */
export function useConsentFlowState(consent: TConsent) {
  const [state, dispatch] = useReducer(consentFlowReducer, consent, initialConsentFlow);
  const current = useRef<TConsentFlowState>(state);
  const act = useCallback<TAct>((action) => {
    current.current = consentFlowReducer(current.current, action);
    dispatch(action);
    return current.current;
  }, []);
  return { state, act, current };
}

/**
 * The account an immediate payment paid already came from, as its payer reads the payment (the
 * consent read names none). Paid already from an account linked and approved: the page jumps to
 * the final step (§4).
 */
export function usePaidFrom(
  consent: TConsent,
  clientId: string,
  accounts: readonly TUserAccount[] | undefined,
  act: TAct,
) {
  const paid = consent.payments.find((p) => p.type === 'immediate' && p.status === 'executed');
  const paidRead = usePaymentQuery(
    paid?.paymentId ?? '',
    { signedIn: true, consentId: consent.consentId, clientId },
    paid !== undefined,
  );
  const paidFrom = paidRead.data?.payerBank ?? null;
  const jumped = useRef(false);
  useEffect(() => {
    if (jumped.current || !accounts || (paid && paidRead.isPending)) return;
    jumped.current = true;
    const origin = approvedOriginAccount(consent, accounts, paidFrom);
    if (origin) act({ type: 'paid_from_approved_account', accountId: origin.accountId });
  }, [accounts, consent, act, paid, paidRead.isPending, paidFrom]);
  return paidFrom;
}

/**
 * A saved account chosen for the unpaid immediate payment is debited by the grant: its
 * phases are the payment's. Counted as the grant reaches the server, once per phase change.
 */
export function useDebitReports(
  consent: TConsent,
  state: TConsentFlowState,
  reports: TEmbedReports,
) {
  const debits = useRef(0);
  const tellDebit = useEffectEvent((phase: TGrantPhase) => {
    const payment = consent.payments.find((p) => p.type === 'immediate');
    if (!payment || !state.immediateAccount || state.completed.includes('immediate_payment')) {
      return;
    }
    if (phase === 'processing') debits.current += 1;
    const report = debitReport(payment.paymentId, phase, debits.current);
    if (report) reports.payment(report);
  });
  useEffect(() => tellDebit(state.grant), [state.grant]);
}

/** The Consent Error modal closed: the focus goes back to the grant's button, drawn again. */
export function useGrantRefocus(grant: TGrantPhase, act: TAct) {
  const grantButton = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  const closeError = () => {
    refocus.current = true;
    act({ type: 'grant_retry' });
  };
  useEffect(() => {
    if (!refocus.current || grant !== 'idle') return;
    refocus.current = false;
    grantButton.current?.focus();
  }, [grant]);
  return { grantButton, closeError };
}

export type TGrantSteps = {
  consent: TConsent;
  /** Kept in the grant's record: where the payer was shown the consent. */
  channel: 'embedded' | 'standalone';
  signGrant: TConsentScreens['signGrant'];
  act: TAct;
  current: { readonly current: TConsentFlowState };
  onGranted(): void;
  onFailed(error: string): void;
};

/** The signed grant: the passkey signs the request, the server grants, the outcome is shown. */
export async function grantConsent({
  consent,
  channel,
  signGrant,
  act,
  current,
  onGranted,
  onFailed,
}: TGrantSteps) {
  if (act({ type: 'grant_requested' }).grant !== 'signing') return;
  try {
    const request = { ...consentFlowGrantRequest(consent, current.current, null), channel };
    const signed = await signGrant(consent.consentId, request);
    act({ type: 'grant_signed' });
    const answer = await paymentsApi.grant(consent.consentId, {
      ...request,
      signature: { nonce: signed.nonce, response: signed.response },
    });
    const outcome = grantOutcome(consent, answer);
    if (outcome.kind === 'success') {
      act({ type: 'grant_succeeded' });
      setTimeout(onGranted, GRANT_SUCCESS_SCREEN_MS);
    } else {
      act({ type: 'grant_failed', message: outcome.message });
      onFailed(outcome.parentError);
    }
  } catch (error) {
    const signatureBlock = signatureBlockOf(error);
    act({
      type: 'grant_failed',
      message: signatureBlock === 'not_on_device' ? APPROVAL_NOT_GIVEN_MESSAGE : messageOf(error),
      ...(signatureBlock ? { signatureBlock } : {}),
    });
    // A missing approval the payer can give here is not the consent's failure yet.
    if (!signatureBlock) onFailed(messageOf(error));
  }
}

/** 'Decline' (spec §4): the consent is declined, the parent told, the page closed or read again. */
export function useDecline(
  consent: TConsent,
  embed: boolean,
  reports: TEmbedReports,
  onFailed: (error: string) => void,
  onGranted: () => void,
) {
  const [declining, setDeclining] = useState(false);
  const [declineError, setDeclineError] = useState<string | null>(null);
  const decline = async () => {
    setDeclining(true);
    setDeclineError(null);
    try {
      const answer = await consentApi.decline(consent.consentId);
      // Before the failure, which closes a merchant's embed (src/sdk).
      reports.declined();
      onFailed(answer.message ?? ERROR_CATALOGUE.CONSENT_REJECTED.message);
      if (!embed) window.close();
      onGranted();
    } catch (error) {
      setDeclineError(messageOf(error));
      setDeclining(false);
    }
  };
  return { declining, declineError, decline };
}
