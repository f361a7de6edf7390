import { useEffect } from 'react';
import {
  chipReaderTransports,
  type TChipReaderTransport,
} from '../../../domain/chip-reader-transports';
import { ALL_CAPABILITIES_ON, payMethodsOn } from '../../../domain/capabilities';
import { formatNaira } from '../../../domain/money';
import { payNowHeader } from '../../../domain/pay-now-screen';
import { showsCardSteps, type TPayNowState } from '../../../domain/pay-now-state';
import type { TConsent, TPayment } from '../../../domain/schemas/consent';
import { usePublicConfig } from '../../api/auth';
import type { TPayer } from '../../api/payments';
import type { TPayNowPrompts, TPayNowScreenProps } from '../../contracts/consent-slots';
import { MerchantLogo } from '../../ui/merchant-logo';
import { PartBoundary } from '../../ui/part-boundary';
import { SCREEN_TITLE_ID } from '../../ui/screen-main';
import { Spinner } from '../../ui/spinner';
import { useWebBluetooth } from '../../ui/document-context';
import { CardSteps } from './card-steps-part';
import { CardStepLoading } from './pay-now-loading';
import { PaymentMethods } from './pay-now-methods';
import { TransferStep } from './pay-now-transfer-step';
import { ProcessingStep } from './processing-step-part';
import { useCardCharge } from './use-card-charge';
import { usePayNowChoices } from './use-pay-now-choices';
import { usePayNowGrant } from './use-pay-now-grant';
import {
  usePaymentClocks,
  usePaymentRead,
  usePaymentReport,
  usePayNowState,
} from './use-pay-now-progress';
import { usePaymentCalls } from './use-payment-calls';
import './payment.css';

type TPayNowHeadingProps = {
  consent: TConsent;
  payment: TPayment;
  state: TPayNowState;
  /** Inside a step of the flow, whose header replaces the screen's own. */
  inSteps: boolean | undefined;
};

/** The screen's title and badge, who is paid, the amount and the payment's narration. */
function PayNowHeading({ consent, payment, state, inSteps }: TPayNowHeadingProps) {
  const header =
    payment.status === 'executed'
      ? ({ badge: 'Completed', amountText: 'paid' } as const)
      : payNowHeader(state);
  return (
    <>
      {inSteps ? null : (
        <div className="step-header">
          <h1 id={SCREEN_TITLE_ID}>Immediate Payment</h1>
          <span className={header.badge === 'Pending' ? 'badge' : 'badge done'}>
            {header.badge}
          </span>
        </div>
      )}
      <p className="pay-to">
        <MerchantLogo name={consent.counterparty.name} image={consent.counterparty.image} />
        <span>
          <span className="secondary-text">To </span>
          <strong>{consent.counterparty.name}</strong>
        </span>
      </p>
      <p className="amount-due">
        <strong>{formatNaira(payment.amount)}</strong> {header.amountText}
      </p>
      <p className="secondary-text">{payment.narration}</p>
    </>
  );
}

type TTerminalStepProps = {
  payment: TPayment;
  payer: TPayer;
  prompts: TPayNowPrompts;
  /** The reader the page connects, or the merchant's terminal the server pushes to. */
  kind: 'reader' | 'push';
  transports: readonly TChipReaderTransport[];
  news: TPayNowState['terminalNews'];
  onClose(): void;
};

/** The Chip Card Terminal modal (the terminal feature's), loaded when the payer opens it. */
function TerminalStep({
  payment,
  payer,
  prompts,
  kind,
  transports,
  news,
  onClose,
}: TTerminalStepProps) {
  const common = { paymentId: payment.paymentId, amount: payment.amount, payer, onClose };
  return (
    <PartBoundary
      loading={
        <p className="loading-line" role="status">
          <Spinner small /> Opening the terminal...
        </p>
      }
    >
      {kind === 'push' ? (
        <prompts.PushedTerminal {...common} news={news} />
      ) : (
        <prompts.ChipTerminal {...common} transports={transports} />
      )}
    </PartBoundary>
  );
}

/**
 * The Immediate Payment screen (spec §2): the amount due, the ways to pay it, Pay with Transfer,
 * the processing view, and the grant once it is paid. It draws the domain's pay-now reducer
 * (src/domain/pay-now-screen.ts) and sends it what happened; where the payment stands lives on
 * the server, whose read a reload resumes from.
 */
export function PayNowScreen(props: TPayNowScreenProps) {
  const { consent, payment, clientId, signedIn, onPaymentStatus, flow, prompts } = props;
  const payer = { signedIn, consentId: consent.consentId, clientId };
  const paid = payment.status === 'executed';
  const [state, dispatch] = usePayNowState(payment);
  const { view } = state;
  // The progress's code, asked for once this screen is usable: here before a way is chosen.
  useEffect(() => {
    void ProcessingStep.preload().catch(() => undefined);
  }, []);
  // 'Chip Card Terminal' (spec §2): offered where a reader can be reached (chip-terminal.ts).
  // The public config says whether the sandbox's reader is, fetched before the first paint, so
  // the methods do not grow (and move under the payer's finger) once the page is up.
  const publicConfig = usePublicConfig().data;
  const readerTransports = chipReaderTransports({
    sandbox: publicConfig?.sandbox === true,
    webBluetooth: useWebBluetooth(),
  });
  // Only the ways this server (docs/going-live.md) and this device can serve.
  const terminalKind = publicConfig?.terminal ?? 'reader';
  const offers = payMethodsOn(
    publicConfig?.capabilities ?? ALL_CAPABILITIES_ON,
    terminalKind === 'push'
      ? { kind: 'push' }
      : { kind: 'reader', readerReachable: readerTransports.length > 0 },
  );
  usePaymentReport(payment.paymentId, state, onPaymentStatus);
  const read = usePaymentRead(
    payment.paymentId,
    payer,
    dispatch,
    // Followed while unpaid, so a payment made on another device shows here as it goes (spec §4
    // 'An unexecuted pending immediate payment waits for a live event'); not while the flow's
    // own grant debits a saved account, whose completion the flow answers.
    !paid && !flow?.savedAccountChosen,
  );
  usePaymentClocks(state, dispatch);
  const calls = usePaymentCalls(payment.paymentId, payer, dispatch);
  const { grant, prompt, grantError } = usePayNowGrant({ ...props, state, read });
  const card = useCardCharge(payment.paymentId, payer, state, dispatch);
  const choices = usePayNowChoices(state, dispatch, calls);

  if (prompt && state.prompt.step === 'sign_in') {
    // The auth prompt is a screen of its own, with its own title; signed in, the page opens the
    // consent again, where the prompt's next step follows (spec §4).
    return (
      <prompts.SignIn onAuthenticated={() => dispatch({ type: 'prompt_step', step: 'ask' })} />
    );
  }

  return (
    <section
      className={flow?.inSteps ? 'pay-now' : 'card-body pay-now'}
      {...(flow?.inSteps ? {} : { 'aria-labelledby': SCREEN_TITLE_ID })}
    >
      <PayNowHeading consent={consent} payment={payment} state={state} inSteps={flow?.inSteps} />

      {view === 'methods' && flow ? flow.otherWays : null}
      {view === 'methods' ? (
        <PaymentMethods
          storedCard={state.storedCard}
          resending={state.card.resending}
          openingCard={choices.openingCard}
          offers={offers}
          terminalKind={terminalKind}
          terminalButton={choices.terminalButton}
          onPayByTransfer={choices.payByTransfer}
          onRetryCard={card.retryCard}
          onPayWithCard={choices.payWithCard}
          onOpenTerminal={() => dispatch({ type: 'terminal_opened' })}
        />
      ) : null}
      {view === 'methods' && flow ? flow.afterWays : null}

      {state.terminalOpen && state.status.phase !== 'completed' ? (
        <TerminalStep
          payment={payment}
          payer={payer}
          prompts={prompts}
          kind={terminalKind}
          transports={readerTransports}
          news={state.terminalNews}
          onClose={choices.closeTerminal}
        />
      ) : null}

      {view === 'transfer' ? (
        <TransferStep state={state} calls={calls} dispatch={dispatch} />
      ) : null}

      {showsCardSteps(state) ? (
        <PartBoundary loading={<CardStepLoading />}>
          <CardSteps state={state} card={card} dispatch={dispatch} />
        </PartBoundary>
      ) : null}

      {view === 'processing' ? (
        <PartBoundary loading={<CardStepLoading />}>
          <ProcessingStep
            state={state}
            payment={payment}
            prompts={prompts}
            prompt={prompt}
            calls={calls}
            granting={grant.isPending}
            grantError={grantError}
            onGrantAgain={() => grant.mutate()}
            onViewTransferDetails={choices.viewTransferDetails}
            onRetry={state.method === 'card' ? card.retryCard : choices.payByTransfer}
            dispatch={dispatch}
          />
        </PartBoundary>
      ) : null}
    </section>
  );
}
