import { useEffect } from 'react';
import {
  approvedOriginAccount,
  consentFlowButton,
  showsDecline,
} from '../../../domain/consent-flow';
import { consentStepViews, immediatePaymentLinked } from '../../../domain/consent-steps';
import { useUserAccounts } from '../../api/accounts';
import { SCREEN_TITLE_ID } from '../../ui/screen-main';
import {
  declineActions,
  flowActions,
  grantOverlays,
  type TGrantControls,
} from './consent-flow-grant';
import { flowStepBody, flowStepsList, type TFlowDrawing } from './consent-flow-steps';
import { Representative } from './representative';
import {
  grantConsent,
  useConsentFlowState,
  useDebitReports,
  useDecline,
  useGrantRefocus,
  usePaidFrom,
} from './use-consent-flow';
import type { TConsentFlowProps } from './consent-flow-props';
import './consent-flow.css';

/**
 * The main consent flow (spec §2 "Main consent flow", §4): the consent's steps in order, each
 * drawn from the domain's flow state, the button under the open step, the signed grant with its
 * overlays, and the Consent Error modal. A consent of one step shows that step alone.
 */
export function ConsentFlow(props: TConsentFlowProps) {
  const { consent, embed, screens, reports, onGranted, onFailed } = props;
  const { state, act, current } = useConsentFlowState(consent);
  const accounts = useUserAccounts(true);
  const paidFrom = usePaidFrom(consent, props.clientId, accounts.data, act);
  const openStep = state.current;
  useEffect(() => {
    if (openStep) reports.step(openStep);
  }, [openStep, reports]);
  useDebitReports(consent, state, reports);
  // Kept in the grant's record: where the payer was shown the consent.
  const channel = embed ? ('embedded' as const) : ('standalone' as const);
  const { grantButton, closeError } = useGrantRefocus(state.grant, act);
  const views = consentStepViews(
    state.steps,
    state.current ?? state.steps[0] ?? 'immediate_payment',
    new Set(state.completed),
    immediatePaymentLinked({
      savedAccountChosen: state.immediateAccount !== null,
      paidFromLinkedAccount: approvedOriginAccount(consent, accounts.data ?? [], paidFrom) !== null,
    }),
  );
  const grant = () =>
    grantConsent({
      consent,
      channel,
      signGrant: screens.signGrant,
      act,
      current,
      onGranted,
      onFailed,
    });
  const decline = useDecline(consent, embed, reports, onFailed, onGranted);
  const logosOf = (ids: readonly string[]) =>
    ids.flatMap((id) => {
      const account = accounts.data?.find((a) => a.bankId === id);
      return account?.logo ? [{ id, logo: account.logo, bank: account.bankName }] : [];
    });
  const controls: TGrantControls = { state, act, grant, grantButton, closeError };
  const single = state.steps.length === 1;
  const flowButton = flowActions(consentFlowButton(state), controls);
  const flow: TFlowDrawing = { ...props, state, act, current, channel, single, flowButton };
  const overlays = grantOverlays(controls, props);

  // A payment alone is the Immediate Payment screen itself, its OneTap button under the accounts.
  if (single && state.current === 'immediate_payment') {
    return (
      <div className="consent-flow">
        {flowStepBody('immediate_payment', flow)}
        {overlays}
      </div>
    );
  }

  return (
    <section className="card-body consent-flow" aria-labelledby={SCREEN_TITLE_ID}>
      <h1 id={SCREEN_TITLE_ID} className="visually-hidden">
        {consent.counterparty.name} - Consent Request
      </h1>
      {consent.actOnBehalfOf ? <Representative rep={consent.actOnBehalfOf} /> : null}
      {single && state.current ? (
        <>
          {flowStepBody(state.current, flow)}
          {flowButton}
        </>
      ) : (
        flowStepsList(views, flow, logosOf)
      )}
      {showsDecline(state) ? declineActions(controls, decline) : null}
      {overlays}
    </section>
  );
}
