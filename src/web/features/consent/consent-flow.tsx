import {
  useCallback,
  useEffect,
  useEffectEvent,
  useId,
  useReducer,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import {
  APPROVAL_NOT_GIVEN_MESSAGE,
  approvedOriginAccount,
  canPayWithoutSignature,
  closesConsentError,
  CONSENT_ERROR_CLOSE,
  consentFlowButton,
  consentFlowGrantRequest,
  consentFlowReducer,
  initialConsentFlow,
  showsConsentOrDecline,
  showsDecline,
  type TConsentFlowAction,
  type TConsentFlowState,
  type TGrantPhase,
  type TSignatureBlock,
} from '../../../domain/consent-flow';
import {
  CONSENT_STEP_TITLES,
  consentStepViews,
  immediatePaymentLinked,
  stepDotLogos,
  type TConsentStep,
} from '../../../domain/consent-steps';
import { isApprovalNotGiven } from '../../../domain/auth-failure';
import { GRANT_SUCCESS_SCREEN_MS } from '../../../domain/constants';
import { debitReport } from '../../../domain/embed-payment-report';
import {
  asksForBvn,
  dataPointsText,
  dataSharingChips,
  NO_BVN_TO_SHARE,
} from '../../../domain/data-sharing';
import { WITHDRAW_NOTE } from '../../../domain/withdraw-note';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import { groupFuturePayments } from '../../../domain/future-payment-schedule';
import { futurePaymentSummary } from '../../../domain/future-payment-summary';
import { grantOutcome } from '../../../domain/grant-outcome';
import { scheduleExplanation } from '../../../domain/schedule-explanation';
import type { TConsent } from '../../../domain/schemas/consent';
import { useUserAccounts } from '../../api/accounts';
import { useVerifiedBvn } from '../../api/identity';
import { ApiError, isApiError } from '../../api/api-error';
import { paymentsApi, usePaymentQuery } from '../../api/payments';
import { consentApi } from '../../api/consent';
import {
  type TConsentScreens,
  type TEmbedReports,
  type TPayNowPrompts,
} from '../../contracts/consent-slots';
import { BusyOverlay } from '../../ui/busy-overlay';
import { Button } from '../../ui/button';
import { FailureBoundary } from '../../ui/part-boundary';
import { SCREEN_TITLE_ID } from '../../ui/screen-main';
import { ReportAndCloseButton } from './report-and-close';
import { Representative } from './representative';
import { ScheduleRowText } from './schedule-row-text';
import './consent-flow.css';

export type TConsentFlowProps = {
  consent: TConsent;
  clientId: string;
  embed: boolean;
  screens: TConsentScreens;
  /** The prompts after the immediate payment (spec §2, §4). */
  prompts: TPayNowPrompts;
  /** Granted: the page reads the consent again and shows Consent Granted. */
  onGranted(): void;
  /** The grant failed or was declined: the embedding parent is told. */
  onFailed(error: string): void;
  /** 'Report & Close' on the Consent Error modal (embed only). */
  onReport(error: string): void;
  /** The step shown, the payment's status and a decline, told to the embedding parent. */
  reports: TEmbedReports;
  /** The account-linking panel opened or closed (the header reads 'Link Account'). */
  onLinkingChange(open: boolean): void;
};

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

/**
 * The main consent flow (spec §2 "Main consent flow", §4): the consent's steps in order, each
 * drawn from the domain's flow state, the button under the open step, the signed grant with its
 * overlays, and the Consent Error modal. A consent of one step shows that step alone.
 */
export function ConsentFlow({
  consent,
  clientId,
  embed,
  screens,
  prompts,
  onGranted,
  onFailed,
  onReport,
  reports,
  onLinkingChange,
}: TConsentFlowProps) {
  const [state, dispatch] = useReducer(consentFlowReducer, consent, initialConsentFlow);
  // The state the next call decides on, so a double press starts one grant (like the panel's).
  const current = useRef<TConsentFlowState>(state);
  const act = useCallback((action: TConsentFlowAction) => {
    current.current = consentFlowReducer(current.current, action);
    dispatch(action);
    return current.current;
  }, []);
  const accounts = useUserAccounts(true);
  // The account an immediate payment paid already came from, as its payer reads the payment (the
  // consent read names none).
  const paid = consent.payments.find((p) => p.type === 'immediate' && p.status === 'executed');
  const paidRead = usePaymentQuery(
    paid?.paymentId ?? '',
    { signedIn: true, consentId: consent.consentId, clientId },
    paid !== undefined,
  );
  const paidFrom = paidRead.data?.payerBank ?? null;
  // Paid already from an account linked and approved: the page jumps to the final step (§4).
  const jumped = useRef(false);
  useEffect(() => {
    if (jumped.current || !accounts.data || (paid && paidRead.isPending)) return;
    jumped.current = true;
    const origin = approvedOriginAccount(consent, accounts.data, paidFrom);
    if (origin) act({ type: 'paid_from_approved_account', accountId: origin.accountId });
  }, [accounts.data, consent, act, paid, paidRead.isPending, paidFrom]);
  const openStep = state.current;
  useEffect(() => {
    if (openStep) reports.step(openStep);
  }, [openStep, reports]);
  // A saved account chosen for the unpaid immediate payment is debited by the grant: its
  // phases are the payment's. Counted as the grant reaches the server, once per phase change.
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
  const button = consentFlowButton(state);
  // Kept in the grant's record: where the payer was shown the consent.
  const channel = embed ? ('embedded' as const) : ('standalone' as const);
  // The Consent Error modal closed: the focus goes back to the grant's button, drawn again.
  const grantButton = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  const closeError = () => {
    refocus.current = true;
    act({ type: 'grant_retry' });
  };
  useEffect(() => {
    if (!refocus.current || state.grant !== 'idle') return;
    refocus.current = false;
    grantButton.current?.focus();
  }, [state.grant]);
  const views = consentStepViews(
    state.steps,
    state.current ?? state.steps[0] ?? 'immediate_payment',
    new Set(state.completed),
    immediatePaymentLinked({
      savedAccountChosen: state.immediateAccount !== null,
      paidFromLinkedAccount: approvedOriginAccount(consent, accounts.data ?? [], paidFrom) !== null,
    }),
  );

  const grant = async () => {
    if (act({ type: 'grant_requested' }).grant !== 'signing') return;
    try {
      const request = { ...consentFlowGrantRequest(consent, current.current, null), channel };
      const signed = await screens.signGrant(consent.consentId, request);
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
  };

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

  const logosOf = (ids: readonly string[]) =>
    ids.flatMap((id) => {
      const account = accounts.data?.find((a) => a.bankId === id);
      return account?.logo ? [{ id, logo: account.logo, bank: account.bankName }] : [];
    });

  const single = state.steps.length === 1;
  const stepContent = (step: TConsentStep): ReactNode => {
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
        return state.futureView === 'schedule' ? (
          <FutureScheduleBody
            consent={consent}
            onConfirm={() => act({ type: 'schedule_confirmed' })}
          />
        ) : (
          <>
            <screens.RepaymentAccounts
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
      case 'immediate_payment': {
        const payment = consent.payments.find((p) => p.type === 'immediate');
        if (!payment) return null;
        return (
          <screens.PayNow
            consent={consent}
            payment={payment}
            clientId={clientId}
            signedIn
            signGrant={screens.signGrant}
            onGranted={onGranted}
            onFailed={onFailed}
            onPaymentStatus={reports.payment}
            prompts={prompts}
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
                  {single ? flowButton : null}
                </>
              ),
            }}
          />
        );
      }
    }
  };

  // A step whose code did not come says so in its place, with 'Try Again'; the flow keeps its state.
  const body = (step: TConsentStep) => (
    <FailureBoundary key={step}>{stepContent(step)}</FailureBoundary>
  );

  const flowButton = button ? (
    <div className="flow-actions">
      {button.action === 'grant' ? <WithdrawNote /> : null}
      <Button
        ref={button.action === 'grant' ? grantButton : undefined}
        disabled={button.disabled}
        onClick={() => (button.action === 'grant' ? void grant() : act({ type: 'step_confirmed' }))}
      >
        {button.button.label}
        {button.button.variant === 'onetap' ? (
          <span className="onetap-account"> {button.button.maskedAccount}</span>
        ) : null}
      </Button>
      {state.current === 'future_payments' && state.futureView === 'accounts' ? (
        <Button variant="link" onClick={() => act({ type: 'schedule_back' })}>
          back
        </Button>
      ) : null}
    </div>
  ) : null;

  const overlays = (
    <>
      {state.grant === 'signing' ? (
        <BusyOverlay title="Getting your biometric approval..." />
      ) : null}
      {state.grant === 'processing' ? <BusyOverlay title="Processing consent..." /> : null}
      {state.grant === 'completing' ? <BusyOverlay title="Completing consent..." /> : null}
      {state.grant === 'failed' && state.error ? (
        <ConsentErrorModal
          message={state.error}
          embed={embed}
          onRetry={closeError}
          // Without a passkey, or with one that must wait, another try fails the same: the offers
          // below replace it.
          canRetry={
            state.signatureBlock !== 'no_passkey' && state.signatureBlock !== 'passkey_waiting'
          }
          closable={closesConsentError(state)}
          onReport={() => onReport(state.error ?? '')}
        >
          {state.signatureBlock === 'no_passkey' || state.signatureBlock === 'not_on_device' ? (
            <screens.AddPasskey
              onDone={(created) => {
                if (!created) return closeError();
                // Signs at once, or asks what it may not sign yet: then the modal says until when.
                const next = act({ type: 'passkey_created', ...created, now: new Date() });
                if (next.grant === 'idle') void grant();
              }}
            />
          ) : null}
          {canPayWithoutSignature(state) ? (
            <>
              <p>
                Meanwhile, pay the immediate payment by transfer or card: that needs no passkey.
              </p>
              {/* What the payer can do today: the modal's main action. */}
              <Button onClick={() => act({ type: 'pay_without_signature' })}>
                Pay by Transfer or Card
              </Button>
            </>
          ) : null}
        </ConsentErrorModal>
      ) : null}
    </>
  );

  // A payment alone is the Immediate Payment screen itself, its OneTap button under the accounts.
  if (single && state.current === 'immediate_payment') {
    return (
      <div className="consent-flow">
        {body('immediate_payment')}
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
          {body(state.current)}
          {flowButton}
        </>
      ) : (
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
                      {body(view.step)}
                      {flowButton}
                    </>
                  ) : null}
                </StepHeader>
              </li>
            );
          })}
        </ol>
      )}
      {showsDecline(state) ? (
        <div className="flow-actions">
          {showsConsentOrDecline(state) ? (
            <>
              <WithdrawNote />
              <Button ref={grantButton} onClick={() => void grant()}>
                Consent
              </Button>
            </>
          ) : null}
          <Button variant="secondary" disabled={declining} onClick={() => void decline()}>
            Decline
          </Button>
          {declineError ? (
            <p className="form-error" role="alert">
              {declineError}
            </p>
          ) : null}
        </div>
      ) : null}
      {overlays}
    </section>
  );
}

/**
 * Before 'Consent' or 'OneTap': the consent can be withdrawn at any time, and where (the same
 * line is in the grant's record, domain/consent-record.ts). 'Your consents' opens beside
 * the consent, which keeps its place, as the header's link to it does.
 */
function WithdrawNote() {
  return (
    <p className="withdraw-note">
      {WITHDRAW_NOTE.before}
      <a href={WITHDRAW_NOTE.href} target="_blank" rel="noopener">
        {WITHDRAW_NOTE.link}
      </a>
      {WITHDRAW_NOTE.after}
    </p>
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
  dots: { shown: Array<{ id: string; logo: string; bank: string }>; more: string | null } | null;
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

/** The Consent Error modal (spec §2): the message, 'Try Again', 'Report & Close' (embed only). */
function ConsentErrorModal({
  message,
  embed,
  onRetry,
  onReport,
  canRetry = true,
  closable = false,
  children,
}: {
  message: string;
  embed: boolean;
  /** 'Try Again', 'Close' and Escape: back to the consent, where the grant can be asked again. */
  onRetry(): void;
  canRetry?: boolean;
  /** 'Close', where 'Try Again' is withheld and nothing else would leave the modal. */
  closable?: boolean;
  onReport(): void;
  /** A way forward besides 'Try Again' (a passkey to create, another way to pay). */
  children?: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  // What the modal offers changed under the focus (a passkey created, then the wait): the focus
  // stays in the modal, on its first control, not on the page behind it.
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.contains(document.activeElement)) {
      dialog.querySelector<HTMLElement>('button, a[href], input')?.focus();
    }
  }, [message, closable]);
  return (
    <dialog
      ref={ref}
      className="consent-error"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onRetry();
      }}
    >
      <h2 id={titleId}>Consent Error</h2>
      <p role="alert">{message}</p>
      {children}
      <div className="flow-actions">
        {canRetry ? <Button onClick={onRetry}>Try Again</Button> : null}
        {closable ? (
          <Button variant="secondary" onClick={onRetry}>
            {CONSENT_ERROR_CLOSE}
          </Button>
        ) : null}
        {embed ? <ReportAndCloseButton label="Report & Close" onReport={onReport} /> : null}
      </div>
    </dialog>
  );
}
