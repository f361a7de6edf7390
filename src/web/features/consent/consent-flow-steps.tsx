import { useId, useState, type ReactNode } from 'react';
import {
  consentFlowGrantRequest,
  showsConsentOrDecline,
  type TConsentFlowState,
} from '../../../domain/consent-flow';
import {
  CONSENT_STEP_TITLES,
  stepDotLogos,
  type TConsentStep,
  type TConsentStepView,
} from '../../../domain/consent-steps';
import {
  asksForBvn,
  dataPointsText,
  dataSharingChips,
  NO_BVN_TO_SHARE,
} from '../../../domain/data-sharing';
import { groupFuturePayments } from '../../../domain/future-payment-schedule';
import { futurePaymentSummary } from '../../../domain/future-payment-summary';
import { scheduleExplanation } from '../../../domain/schedule-explanation';
import type { TConsent } from '../../../domain/schemas/consent';
import { useVerifiedBvn } from '../../api/identity';
import { Button } from '../../ui/button';
import { FailureBoundary } from '../../ui/part-boundary';
import type { TConsentFlowProps } from './consent-flow-props';
import { ScheduleRowText } from './schedule-row-text';
import type { TAct } from './use-consent-flow';

/** What the flow's steps are drawn from: the flow's props, its state, and the button under the open step. */
export type TFlowDrawing = TConsentFlowProps & {
  state: TConsentFlowState;
  act: TAct;
  /** The state the next call decides on. */
  current: { readonly current: TConsentFlowState };
  channel: 'embedded' | 'standalone';
  /** The consent has one step, shown alone. */
  single: boolean;
  flowButton: ReactNode;
};

/** A step's body; one whose code did not come says so in its place, with 'Try Again', and the flow keeps its state. */
export function flowStepBody(step: TConsentStep, flow: TFlowDrawing): ReactNode {
  return <FailureBoundary key={step}>{stepContent(step, flow)}</FailureBoundary>;
}

/** What a step asks of the payer (spec §2 Main consent flow). */
function stepContent(step: TConsentStep, flow: TFlowDrawing): ReactNode {
  const { consent, clientId, screens, state, act } = flow;
  switch (step) {
    case 'data_sharing':
      return <DataSharingBody consent={consent} />;
    case 'form':
      return (
        <screens.FormStep
          consent={consent}
          clientId={clientId}
          readOnly={false}
          onComplete={() => act({ type: 'step_confirmed' })}
          showNextStep={!showsConsentOrDecline(state)}
        />
      );
    case 'future_payments':
      return futurePaymentsContent(flow);
    case 'immediate_payment':
      return immediatePaymentContent(flow);
  }
}

/** The future payments' schedule, then the accounts they are collected from. */
function futurePaymentsContent({ consent, screens, state, act, onLinkingChange }: TFlowDrawing) {
  return state.futureView === 'schedule' ? (
    <FutureScheduleBody consent={consent} onConfirm={() => act({ type: 'schedule_confirmed' })} />
  ) : (
    <>
      <screens.RepaymentAccounts
        consentId={consent.consentId}
        selectedIds={state.futureAccountIds}
        onToggle={(accountId) => act({ type: 'future_account_toggled', accountId })}
        onLinked={(accountId) => act({ type: 'future_account_linked', accountId })}
        onLinkingChange={(open) => {
          act({ type: 'linking_toggled', open });
          onLinkingChange(open);
        }}
      />
    </>
  );
}

/** The immediate payment, paid in the flow, with the payer's saved accounts among its ways. */
function immediatePaymentContent(flow: TFlowDrawing): ReactNode {
  const { consent, screens, state, act, current, channel, single } = flow;
  const payment = consent.payments.find((p) => p.type === 'immediate');
  if (!payment) return null;
  return (
    <screens.PayNow
      consent={consent}
      payment={payment}
      clientId={flow.clientId}
      signedIn
      signGrant={screens.signGrant}
      onGranted={flow.onGranted}
      onFailed={flow.onFailed}
      onPaymentStatus={flow.reports.payment}
      prompts={flow.prompts}
      flow={{
        grantRequest: (paidBy) => ({
          ...consentFlowGrantRequest(consent, current.current, paidBy),
          channel,
        }),
        inSteps: !single,
        savedAccountChosen: state.immediateAccount !== null,
        otherWays: (
          <>
            <screens.SavedAccounts
              selectedId={state.immediateAccount?.accountId ?? null}
              onChoose={(account) => act({ type: 'immediate_account_chosen', ...account })}
            />
            {single ? flow.flowButton : null}
          </>
        ),
      }}
    />
  );
}

type TBankLogo = { id: string; logo: string; bank: string };

/** The consent's steps in order, each under its header, the open one with its body and button. */
export function flowStepsList(
  views: readonly TConsentStepView[],
  flow: TFlowDrawing,
  logosOf: (ids: readonly string[]) => TBankLogo[],
): ReactNode {
  const { state, act } = flow;
  return (
    <ol className="flow-steps">
      {views.map((view) => {
        const open = view.step === state.current;
        const dots =
          view.step === 'future_payments'
            ? stepDotLogos(logosOf(state.futureAccountIds))
            : view.step === 'immediate_payment' && state.immediateAccount
              ? stepDotLogos(logosOf([state.immediateAccount.accountId]))
              : null;
        return (
          <li key={view.step} className={open ? 'flow-step open' : 'flow-step'}>
            <StepHeader
              number={view.number}
              title={CONSENT_STEP_TITLES[view.step]}
              done={view.done}
              statusLabel={view.statusLabel}
              linked={view.linked}
              open={open}
              enabled={view.enabled || view.done}
              onOpen={() => act({ type: 'step_opened', step: view.step })}
              dots={dots}
            >
              {open ? (
                <>
                  {flowStepBody(view.step, flow)}
                  {flow.flowButton}
                </>
              ) : null}
            </StepHeader>
          </li>
        );
      })}
    </ol>
  );
}

type TStepHeaderProps = {
  number: number;
  title: string;
  done: boolean;
  statusLabel: string;
  /** The 'linked' badge beside the status (spec §2 Immediate Payment). */
  linked: boolean;
  open: boolean;
  enabled: boolean;
  onOpen(): void;
  dots: { shown: TBankLogo[]; more: string | null } | null;
  children: ReactNode;
};

/** A step's header (spec §2): its number or a green tick, its title, 'Completed' or 'Pending'. */
function StepHeader({
  number,
  title,
  done,
  statusLabel,
  linked,
  open,
  enabled,
  onOpen,
  dots,
  children,
}: TStepHeaderProps) {
  const bodyId = useId();
  return (
    <>
      <h2 className="flow-step-heading">
        <button
          type="button"
          className="flow-step-header"
          aria-expanded={open}
          aria-controls={bodyId}
          disabled={!enabled}
          onClick={onOpen}
        >
          <span className={done ? 'step-number done' : 'step-number'} aria-hidden="true">
            {done ? '✓' : number}
          </span>
          <span className="step-title">{title}</span>
          <span className="step-marks">
            {dots && dots.shown.length > 0 ? (
              <span className="step-dots">
                {dots.shown.map((dot) => (
                  <img key={dot.id} src={dot.logo} alt={dot.bank} />
                ))}
                {dots.more ? <span className="more">{dots.more}</span> : null}
              </span>
            ) : null}
            {linked ? <span className="badge linked">linked</span> : null}
            <span className={done ? 'badge done' : 'badge'}>{statusLabel}</span>
          </span>
        </button>
      </h2>
      <div id={bodyId} className="flow-step-body" hidden={!open}>
        {children}
      </div>
    </>
  );
}

/** The data the consent shares, and a note where a BVN is asked and none is verified. */
function DataSharingBody({ consent }: { consent: TConsent }) {
  const chips = dataSharingChips(consent.dataSharing);
  const asksBvn = asksForBvn(consent.dataSharing);
  const verified = useVerifiedBvn(asksBvn);
  return (
    <>
      <ul className="chips" aria-label="Data to share">
        {chips.map((chip) => (
          <li key={chip.category} className="chip">
            {chip.text}
          </li>
        ))}
      </ul>
      <p className="secondary-text">{dataPointsText(consent.dataSharing)}</p>
      {asksBvn && verified.data === null ? (
        <p className="secondary-text" role="note">
          {NO_BVN_TO_SHARE}
        </p>
      ) : null}
    </>
  );
}

/** The future payments' schedule, each row explained on a press, and its 'Confirm'. */
function FutureScheduleBody({ consent, onConfirm }: { consent: TConsent; onConfirm(): void }) {
  const future = consent.payments.filter((p) => p.type === 'future');
  const rows = groupFuturePayments(future);
  const [explained, setExplained] = useState<string | null>(null);
  const merchant = consent.counterparty.name;
  return (
    <>
      <p>{futurePaymentSummary(merchant, future)}</p>
      <h3 className="section-title">Payment schedule</h3>
      <ul className="schedule">
        {rows.map((row) => {
          const key = row.paymentIds[0] ?? row.narration;
          const open = explained === key;
          return (
            <li key={key}>
              <button
                type="button"
                className="schedule-row"
                aria-expanded={open}
                onClick={() => setExplained(open ? null : key)}
              >
                <ScheduleRowText row={row} />
              </button>
              {open ? (
                <div className="explanation">
                  <p className="explanation-title">What this means</p>
                  <p>{scheduleExplanation(row, merchant)}</p>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
      <div className="flow-actions">
        <Button onClick={onConfirm}>Confirm</Button>
      </div>
    </>
  );
}
