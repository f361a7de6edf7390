import { useMutation } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useMemo, useReducer, useRef, useTransition } from 'react';
import { chipReaderTransports } from '../../../domain/chip-reader-transports';
import {
  CARD_SLOW_AFTER_MS,
  CONSENT_REFRESH_AFTER_PAYMENT_MS,
  STEP_TEXT_BANK_ANSWERING,
  STEP_TEXT_RETRYING,
} from '../../../domain/constants';
import { paymentReport, type TPaymentReport } from '../../../domain/embed-payment-report';
import { PAGE_ERRORS } from '../../../domain/page-errors';
import { grantOutcome } from '../../../domain/grant-outcome';
import { formatNaira } from '../../../domain/money';
import { afterPaymentPrompt, paidOriginOf } from '../../../domain/after-payment';
import { isGrantedByPayment, paymentGrantsConsent } from '../../../domain/granted-by-payment';
import {
  isPaymentFailure,
  isUnusableCardEnvelope,
  payNowGrantRequest,
  paymentSourceText,
} from '../../../domain/pay-now';
import {
  needsTransferAccount,
  payNowHeader,
  payNowInitial,
  payNowReducer,
  processingControls,
} from '../../../domain/pay-now-screen';
import { PAYMENT_STATUS_TIMINGS } from '../../../domain/payment-status';
import type { TEncryptedCard, TEncryptedField } from '../../../domain/schemas/card';
import { ApiError } from '../../api/api-error';
import { usePublicConfig } from '../../api/auth';
import { paymentsApi, usePaymentQuery } from '../../api/payments';
import type { TPayNowScreenProps } from '../../contracts/consent-slots';
import { Button } from '../../ui/button';
import { MerchantLogo } from '../../ui/merchant-logo';
import { PartBoundary } from '../../ui/part-boundary';
import { preloadable } from '../../ui/preloadable';
import { SCREEN_TITLE_ID } from '../../ui/screen-main';
import { Spinner } from '../../ui/spinner';
import { takeThreeDsReturn } from '../../ui/card/three-ds-return';
import { OtpEndedView } from './otp-ended-view';
import { ProcessingView } from './processing-view';
import { usePaymentEvents } from './use-payment-events';
import { useWebBluetooth } from '../../ui/document-context';
import './payment.css';

const messageOf = (error: unknown) =>
  error instanceof ApiError ? error.message : PAGE_ERRORS.API_REQUEST_FAILED.message;

// The step's first screen is the amount and the methods (or, paid, the processing view and the
// prompt after it), whose code the consent page loads before it takes the screen over
// (vite.config.ts FIRST_SCREEN_MODULES): what a method opens loads when the payer chooses it. The
// card's views come together: the OTP and 3-D Secure steps follow the form's answer.
const TransferDetailsView = preloadable(() =>
  import('./transfer-details-view').then((module) => module.TransferDetailsView),
);
const CardFormView = preloadable(() =>
  import('../../ui/card/card-form-view').then((module) => module.CardFormView),
);
const AskedPinView = preloadable(() =>
  import('../../ui/card/card-pin-step').then((module) => module.AskedPinView),
);
const OtpView = preloadable(() =>
  import('../../ui/card/card-step-views').then((module) => module.OtpView),
);
const ThreeDsView = preloadable(() =>
  import('../../ui/card/card-step-views').then((module) => module.ThreeDsView),
);

// What follows a payment (save the card, link the account): only after it is made.
const AfterPaymentPrompt = preloadable(() =>
  import('./after-payment-prompt').then((module) => module.AfterPaymentPrompt),
);

const loadCardViews = () =>
  Promise.all([
    CardFormView.preload(),
    AskedPinView.preload(),
    OtpView.preload(),
    ThreeDsView.preload(),
  ]);

/** Phases whose progress ring pulses (spec §4: by +3 up to the next step). */
const PULSING = new Set(['charging', 'awaiting_3ds', 'retrying', 'received', 'processed']);

/**
 * The Immediate Payment screen (spec §2): the amount due, the ways to pay it, Pay with Transfer,
 * the processing view, and the grant once it is paid. It draws the domain's pay-now reducer
 * (src/domain/pay-now-screen.ts) and sends it what happened; where the payment stands lives on
 * the server, whose read a reload resumes from.
 */
export function PayNowScreen({
  consent,
  payment,
  clientId,
  signedIn,
  signGrant,
  onGranted,
  onFailed,
  onPaymentStatus,
  flow,
  prompts,
}: TPayNowScreenProps) {
  const payer = { signedIn, consentId: consent.consentId, clientId };
  const paid = payment.status === 'executed';
  const [state, dispatch] = useReducer(
    payNowReducer,
    { paid, amountDue: payment.amount, origin: payment.origin },
    (input) =>
      payNowInitial({
        paid: input.paid,
        amountDue: input.amountDue,
        origin: input.paid ? paidOriginOf(input.origin) : null,
        method: input.origin?.paymentMethod === 'card' ? 'card' : 'transfer',
      }),
  );
  const { status, view } = state;
  // 'Chip Card Terminal' (spec §2): offered where a reader can be reached (chip-terminal.ts).
  // The public config says whether the sandbox's reader is, fetched before the first paint, so
  // the methods do not grow (and move under the payer's finger) once the page is up.
  const readerTransports = chipReaderTransports({
    sandbox: usePublicConfig().data?.sandbox === true,
    webBluetooth: useWebBluetooth(),
  });
  const terminalButton = useRef<HTMLButtonElement>(null);
  const report = useMemo(
    () => paymentReport(payment.paymentId, status.phase, state.report),
    [payment.paymentId, status.phase, state.report],
  );
  const tellPaymentStatus = useEffectEvent((told: TPaymentReport) => onPaymentStatus?.(told));
  useEffect(() => {
    if (report) tellPaymentStatus(report);
  }, [report]);

  // Where the payment stood when the page opened: a reload mid-payment resumes there, and the
  // stream follows from that read on (without the read, from the payment's first event). Paid
  // before the page opened, the payer who paid reads where the money came from (the consent
  // read names no account: docs/payments.md "Who reads a payment"), for the prompt to link it;
  // a page that did not pay it reads nothing, and offers nothing.
  const read = usePaymentQuery(payment.paymentId, payer, true);
  useEffect(() => {
    if (read.data) {
      dispatch({
        type: 'read',
        read: read.data,
        answersCharge: paymentsApi.answersCharge(payment.paymentId, payer),
        backFromChallenge: takeThreeDsReturn(),
      });
    }
    // The payer's identity is in the query's key: one read, applied once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [read.data, payment.paymentId]);
  const streamFrom = read.data ? read.data.lastEventId : read.isError ? 0 : null;

  usePaymentEvents(
    payment.paymentId,
    payer,
    // Followed while unpaid, so a payment made on another device shows here as it goes (spec §4
    // 'An unexecuted pending immediate payment waits for a live event'); not while the flow's
    // own grant debits a saved account, whose completion the flow answers.
    !paid && !flow?.savedAccountChosen,
    streamFrom,
    (event) => dispatch({ type: 'event', event }),
  );

  // The ring's pulse, and the 3 s between 'completed' and success (spec §4).
  useEffect(() => {
    if (!PULSING.has(status.phase)) return;
    const timer = setInterval(
      () => dispatch({ type: 'pulse' }),
      PAYMENT_STATUS_TIMINGS.pulseIntervalMs,
    );
    return () => clearInterval(timer);
  }, [status.phase]);
  useEffect(() => {
    if (status.phase !== 'processed') return;
    const timer = setTimeout(
      () => dispatch({ type: 'completion_delay_elapsed' }),
      PAYMENT_STATUS_TIMINGS.completionDelayMs,
    );
    return () => clearTimeout(timer);
  }, [status.phase]);
  // A payment on its way: what may follow it is fetched meanwhile, so it shows at once.
  useEffect(() => {
    if (view === 'processing') void AfterPaymentPrompt.preload().catch(() => undefined);
  }, [view]);
  // A charge out for a while: the page says the bank is still answering.
  useEffect(() => {
    if (!state.card.charging) return;
    const timer = setTimeout(() => dispatch({ type: 'card_slow' }), CARD_SLOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [state.card.charging]);

  const openTransfer = useMutation({
    mutationFn: () => paymentsApi.openTransfer(payment.paymentId, payer),
    onSuccess: (answer) => dispatch({ type: 'transfer_opened', details: answer.transferDetails }),
  });
  const confirmTransfer = useMutation({
    mutationFn: () => paymentsApi.confirmTransfer(payment.paymentId, payer),
    onSuccess: (answer) => dispatch({ type: 'transfer_confirmed', status: answer.status }),
  });
  const cancelThreeDs = useMutation({
    mutationFn: () => paymentsApi.cancelAttempt(payment.paymentId, payer),
    onSuccess: (answer) => dispatch({ type: 'three_ds_cancelled', attempt: answer.attempt }),
  });

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
    status.phase === 'completed' && state.origin
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
    if (status.phase !== 'completed' || granting.current || prompt || awaitingRead) return;
    granting.current = true;
    sendGrant();
  }, [status.phase, sendGrant, prompt, awaitingRead]);
  const outcome = useMemo(
    () => (grant.data ? grantOutcome(consent, grant.data) : null),
    [consent, grant.data],
  );
  // The grant's answer, once: granted, the page reads the consent again; failed, the parent hears.
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

  const sendCard = async (cardDetails: TEncryptedCard, saveCard: boolean) => {
    try {
      const answer = await paymentsApi.chargeCard(payment.paymentId, payer, cardDetails, saveCard);
      dispatch({ type: 'card_answered', answer });
    } catch (error) {
      dispatch({
        type: 'card_refused',
        message: messageOf(error),
        paymentFailure: error instanceof ApiError && isPaymentFailure(error.code),
        unusableEnvelope: error instanceof ApiError && isUnusableCardEnvelope(error.code),
      });
    }
  };

  const submitCard = (
    cardDetails: TEncryptedCard,
    saveCard: boolean,
    card?: { obfuscatedCard: string },
  ) => {
    dispatch({
      type: 'card_submitted',
      card: card ? { cardDetails, saveCard, obfuscatedCard: card.obfuscatedCard } : null,
      signedIn,
    });
    return sendCard(cardDetails, saveCard);
  };

  // 'Retry Payment', 'Try Again' and 'Pay with Card | {masked card}': the stored card again. From
  // 'Payment Failed' the reducer shows 'Retrying payment...'; from elsewhere, the line below.
  const retryCard = () => {
    if (state.card.resending) return;
    const stored = state.storedCard;
    dispatch({ type: 'retry_card' });
    if (!stored) return;
    dispatch({ type: 'card_submitted', card: null, signedIn });
    void sendCard(stored.cardDetails, stored.saveCard);
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
      const answer = await paymentsApi.submitCardPin(payment.paymentId, payer, cardDetails);
      dispatch({ type: 'card_answered', answer });
    } catch (error) {
      dispatch({
        type: 'card_refused',
        message: messageOf(error),
        paymentFailure: error instanceof ApiError && isPaymentFailure(error.code),
      });
    }
  };

  const verifyOtp = async (otp: string) => {
    dispatch({ type: 'otp_verifying' });
    try {
      await paymentsApi.completeCard(payment.paymentId, payer, otp);
      dispatch({ type: 'otp_verified' });
    } catch (error) {
      dispatch({ type: 'otp_refused', message: messageOf(error) });
    }
  };

  // 'Pay with Card': the methods stay, the button busy, until the form's code is here.
  const [openingCard, startOpeningCard] = useTransition();
  // Its code not come (a dropped connection): the card step says so, with 'Try Again'.
  const payWithCard = () =>
    startOpeningCard(async () => {
      await loadCardViews().catch(() => undefined);
      startOpeningCard(() => dispatch({ type: 'pay_with_card' }));
    });

  // The transfer's details load beside its account, behind the same 'Getting your transfer
  // account...'.
  const payByTransfer = () => {
    void TransferDetailsView.preload();
    dispatch({ type: 'pay_by_transfer' });
    if (needsTransferAccount(state, new Date())) openTransfer.mutate();
  };

  if (prompt && state.prompt.step === 'sign_in') {
    // The auth prompt is a screen of its own, with its own title; signed in, the page opens the
    // consent again, where the prompt's next step follows (spec §4).
    return (
      <prompts.SignIn onAuthenticated={() => dispatch({ type: 'prompt_step', step: 'ask' })} />
    );
  }

  const gettingAccount = (
    <p className="loading-line" role="status">
      <Spinner small /> Getting your transfer account...
    </p>
  );
  // A card step reached without the payer's 'Pay with Card' (a reload at the OTP, a retry with no
  // card kept): its code is still on the way.
  const cardStepLoading = (
    <p className="loading-line" role="status">
      <Spinner small />
    </p>
  );

  const header = paid ? ({ badge: 'Completed', amountText: 'paid' } as const) : payNowHeader(state);
  const controls = processingControls(state);
  const { details } = state;

  return (
    <section
      className={flow?.inSteps ? 'pay-now' : 'card-body pay-now'}
      {...(flow?.inSteps ? {} : { 'aria-labelledby': SCREEN_TITLE_ID })}
    >
      {flow?.inSteps ? null : (
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

      {view === 'methods' && flow ? flow.otherWays : null}
      {view === 'methods' ? (
        <div className="methods" role="group" aria-label="Payment methods">
          <button type="button" className="method" onClick={payByTransfer}>
            <span className="method-name">Pay by Transfer</span>
            <span className="secondary-text">Manual bank transfer</span>
          </button>
          {state.storedCard ? (
            <button
              type="button"
              className="method"
              onClick={retryCard}
              disabled={state.card.resending}
              aria-busy={state.card.resending}
            >
              <span className="method-name">Pay with Card | {state.storedCard.obfuscatedCard}</span>
              <span className="secondary-text">Credit or debit card</span>
            </button>
          ) : null}
          <button
            type="button"
            className="method"
            onClick={payWithCard}
            disabled={openingCard}
            aria-busy={openingCard || undefined}
          >
            <span className="method-name">Pay with Card</span>
            <span className="secondary-text">Credit or debit card</span>
          </button>
          {readerTransports.length > 0 ? (
            <button
              ref={terminalButton}
              type="button"
              className="method"
              aria-haspopup="dialog"
              onClick={() => dispatch({ type: 'terminal_opened' })}
            >
              <span className="method-name">Chip Card Terminal</span>
              <span className="secondary-text">Bluetooth EMV reader</span>
            </button>
          ) : null}
        </div>
      ) : null}
      {view === 'methods' && flow ? flow.afterWays : null}

      {state.terminalOpen && status.phase !== 'completed' ? (
        <PartBoundary
          loading={
            <p className="loading-line" role="status">
              <Spinner small /> Opening the terminal...
            </p>
          }
        >
          <prompts.ChipTerminal
            paymentId={payment.paymentId}
            amount={payment.amount}
            payer={payer}
            transports={readerTransports}
            onClose={() => {
              dispatch({ type: 'terminal_closed' });
              // Back to the method that opened it, when it is still there (not once paid).
              setTimeout(() => terminalButton.current?.focus(), 0);
            }}
          />
        </PartBoundary>
      ) : null}

      {view === 'transfer' ? (
        details && !openTransfer.isPending ? (
          <PartBoundary loading={gettingAccount}>
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
        ) : openTransfer.isError ? (
          <div role="alert" className="failure">
            <p>{messageOf(openTransfer.error)}</p>
            <Button onClick={() => openTransfer.mutate()}>Try Again</Button>
          </div>
        ) : (
          gettingAccount
        )
      ) : null}

      {view === 'card' ? (
        <PartBoundary loading={cardStepLoading}>
          <CardFormView
            onSubmit={submitCard}
            error={state.card.error}
            onBack={() => dispatch({ type: 'back' })}
          />
        </PartBoundary>
      ) : null}
      {view === 'card_pin' ? (
        <PartBoundary loading={cardStepLoading}>
          <AskedPinView
            working={state.card.charging}
            error={state.card.error}
            onSubmit={submitPin}
            onBack={() => dispatch({ type: 'back' })}
          />
        </PartBoundary>
      ) : null}
      {/* Under the card's details or its PIN: the charge is out, and the bank slow to answer. */}
      {(view === 'card' || view === 'card_pin') && state.card.slow ? (
        <p className="loading-line" role="status">
          <Spinner small /> {STEP_TEXT_BANK_ANSWERING} Please keep this page open.
        </p>
      ) : null}

      {view === 'otp' && state.otp.ended ? (
        <OtpEndedView error={state.otp.error} onRetry={retryCard} />
      ) : null}
      {view === 'otp' && !state.otp.ended ? (
        <PartBoundary loading={cardStepLoading}>
          <OtpView
            // A new charge's OTP screen, or one whose OTP was refused, starts afresh: empty boxes.
            key={state.otp.round}
            displayMessage={state.otp.displayMessage}
            verifying={state.otp.verifying}
            error={state.otp.error}
            onVerify={(otp) => void verifyOtp(otp)}
            onRetry={retryCard}
          />
        </PartBoundary>
      ) : null}
      {state.card.resending && view !== 'processing' ? (
        <p className="loading-line" role="status">
          <Spinner small /> {STEP_TEXT_RETRYING}
        </p>
      ) : null}

      {view === 'three_ds' && state.threeDs.challengeUrl ? (
        <PartBoundary loading={cardStepLoading}>
          <ThreeDsView
            challengeUrl={state.threeDs.challengeUrl}
            // The payment's read picks the attempt up when the payer comes back.
            returnsHere
            onOpened={() => dispatch({ type: 'three_ds_opened' })}
          />
        </PartBoundary>
      ) : null}

      {view === 'processing' ? (
        <>
          <ProcessingView
            state={status}
            source={paymentSourceText({
              method: state.method,
              payerBank: state.payerBank,
              payerCard: state.payerCard,
            })}
            showTransferDetails={controls.viewTransferDetails}
            reconnectUrl={controls.reconnect}
            canCancel={controls.cancel !== null}
            cancelling={cancelThreeDs.isPending}
            cancelError={cancelThreeDs.error ? messageOf(cancelThreeDs.error) : null}
            onCancel={() =>
              controls.cancel === 'three_ds' ? cancelThreeDs.mutate() : dispatch({ type: 'cancel' })
            }
            onViewTransferDetails={() => {
              void TransferDetailsView.preload();
              dispatch({ type: 'view_transfer_details' });
              // A transfer another device started: its open account is asked for (the same one).
              if (!details) openTransfer.mutate();
            }}
            onRetry={state.method === 'card' ? retryCard : payByTransfer}
            onTryAnotherMethod={() => dispatch({ type: 'cancel' })}
          />
          {prompt ? (
            <PartBoundary loading={cardStepLoading}>
              <AfterPaymentPrompt
                prompt={prompt}
                amount={payment.amount}
                paymentId={payment.paymentId}
                prompts={prompts}
                step={state.prompt.step}
                onStep={(step) => dispatch({ type: 'prompt_step', step })}
                onSettled={() => dispatch({ type: 'prompt_settled' })}
              />
            </PartBoundary>
          ) : null}
          {grant.isPending ? (
            <p className="loading-line" role="status">
              <Spinner small /> Completing consent...
            </p>
          ) : null}
          {grantError ? (
            <div className="failure" role="alert">
              <p>{grantError}</p>
              <Button onClick={() => sendGrant()}>Try Again</Button>
            </div>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
