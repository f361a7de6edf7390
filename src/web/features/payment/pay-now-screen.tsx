import { useMutation } from '@tanstack/react-query';
import {
  Suspense,
  useCallback,
  useEffect,
  useEffectEvent,
  useMemo,
  useReducer,
  useRef,
  useState,
} from 'react';
import { chipReaderTransports } from '../../../domain/chip-terminal';
import {
  CONSENT_REFRESH_AFTER_PAYMENT_MS,
  STEP_TEXT_AWAITING_TRANSFER,
  STEP_TEXT_RETRYING,
} from '../../../domain/constants';
import {
  nextAttempt,
  paymentReport,
  type TPaymentAttempt,
  type TPaymentReport,
} from '../../../domain/embed-payment-report';
import { ERROR_CATALOGUE } from '../../../domain/errors';
import { grantOutcome } from '../../../domain/grant-outcome';
import { formatNaira } from '../../../domain/money';
import { afterPaymentPrompt, paidOriginOf, type TPaidOrigin } from '../../../domain/after-payment';
import { isPaymentFailure, payNowGrantRequest, paymentSourceText } from '../../../domain/pay-now';
import {
  PAYMENT_STATUS_INITIAL,
  PAYMENT_STATUS_TIMINGS,
  paymentStatusReducer,
  resumedPayment,
} from '../../../domain/payment-status';
import { otpFailureAction } from '../../../domain/otp-input';
import type { TEncryptedCard, TPayerBank, TPayerCard } from '../../../domain/schemas/card';
import type { TTransferDetails } from '../../../domain/schemas/payment';
import { ApiError } from '../../api/api-error';
import { usePublicConfig } from '../../api/auth';
import { paymentsApi } from '../../api/payments';
import type { TPayNowScreenProps } from '../../contracts/consent-slots';
import { Button } from '../../ui/button';
import { MerchantLogo } from '../../ui/merchant-logo';
import { SCREEN_TITLE_ID } from '../../ui/screen-main';
import { Spinner } from '../../ui/spinner';
import { CardFormView } from '../../ui/card/card-form-view';
import { OtpView, ThreeDsView } from '../../ui/card/card-step-views';
import { AfterPaymentPrompt } from './after-payment-prompt';
import { ProcessingView } from './processing-view';
import { TransferDetailsView } from './transfer-details-view';
import { usePaymentEvents } from './use-payment-events';
import './payment.css';

/** The card entered on this page last, as it was sent, and how it shows. */
type TStoredCard = { cardDetails: TEncryptedCard; saveCard: boolean; obfuscatedCard: string };

type TView = 'methods' | 'transfer' | 'card' | 'otp' | 'three_ds' | 'processing';

const messageOf = (error: unknown) =>
  error instanceof ApiError ? error.message : ERROR_CATALOGUE.API_REQUEST_FAILED.message;

/** Phases whose progress ring pulses (spec §4: by +3 up to the next step). */
const PULSING = new Set(['awaiting_3ds', 'retrying', 'received', 'processed']);

/**
 * The Immediate Payment screen (spec §2): the amount due, the ways to pay it, Pay with Transfer,
 * the processing view, and the grant once it is paid. Where the payment stands lives on the
 * server: a reload comes back to it.
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
  const [view, setView] = useState<TView>(paid ? 'processing' : 'methods');
  // A payment paid already (a reload after it went through) starts at its end: the grant.
  const [status, dispatch] = useReducer(paymentStatusReducer, paid, (isPaid) =>
    isPaid
      ? paymentStatusReducer(paymentStatusReducer(PAYMENT_STATUS_INITIAL, { type: 'completed' }), {
          type: 'completion_delay_elapsed',
        })
      : PAYMENT_STATUS_INITIAL,
  );
  const [details, setDetails] = useState<TTransferDetails | null>(null);
  const [payerBank, setPayerBank] = useState<TPayerBank | null>(null);
  const [payerCard, setPayerCard] = useState<TPayerCard | null>(null);
  const [method, setMethod] = useState<'transfer' | 'card'>(
    payment.origin?.paymentMethod === 'card' ? 'card' : 'transfer',
  );
  const [cardError, setCardError] = useState<string | null>(null);
  // The card entered here last: its envelopes (encrypted on this page, for the server alone), in
  // memory only, for 'Retry Payment' (spec §4 'Retrying payment...') and 'Pay with Card | {masked
  // card}' (spec §2). It goes with the page; nothing stores it.
  const [storedCard, setStoredCard] = useState<TStoredCard | null>(null);
  const [resending, setResending] = useState(false);
  const [otpMessage, setOtpMessage] = useState('');
  const [otpError, setOtpError] = useState<string | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [challengeUrl, setChallengeUrl] = useState<string | null>(null);
  // Where the money came from (spec §3 origin): what the prompts after the payment ask about.
  const [origin, setOrigin] = useState<TPaidOrigin | null>(() =>
    paid ? paidOriginOf(payment.origin) : null,
  );
  // Only a card charged while signed in was kept by the server to be saved.
  const [signedInWhenPaid, setSignedInWhenPaid] = useState(false);
  // 'Skip for Now', 'Maybe later', or the prompt's work done: the grant goes on.
  const [promptSettled, setPromptSettled] = useState(false);
  // The prompt's own screen: the auth prompt, or the account-linking panel.
  const [promptStep, setPromptStep] = useState<'ask' | 'sign_in' | 'link'>('ask');
  // 'Chip Card Terminal' (spec §2): offered where a reader can be reached (chip-terminal.ts).
  // The public config says whether the sandbox's reader is, fetched before the first paint, so
  // the methods do not grow (and move under the payer's finger) once the page is up.
  const readerTransports = chipReaderTransports({
    sandbox: usePublicConfig().data?.sandbox === true,
    webBluetooth: 'bluetooth' in navigator,
  });
  const [terminalOpen, setTerminalOpen] = useState(false);
  const terminalButton = useRef<HTMLButtonElement>(null);
  // The latest way of paying begun here: with the reducer's phase, what the parent is told.
  const [attempt, setAttempt] = useState<TPaymentAttempt | null>(null);
  const startAttempt = (method: TPaymentAttempt['method'], key?: string) =>
    setAttempt((last) => nextAttempt(last, method, key));
  const report = useMemo(
    () => paymentReport(payment.paymentId, status.phase, attempt),
    [payment.paymentId, status.phase, attempt],
  );
  const tellPaymentStatus = useEffectEvent((told: TPaymentReport) => onPaymentStatus?.(told));
  useEffect(() => {
    if (report) tellPaymentStatus(report);
  }, [report]);

  // Where the payment stood when the page opened: a reload mid-payment resumes there, and the
  // stream follows from that read on (without the read, from the payment's first event).
  const { consentId } = consent;
  const readOf = `${payment.paymentId} ${signedIn}`;
  const [lastRead, setLastRead] = useState<{ of: string; lastEventId: number } | null>(null);
  const streamFrom = lastRead?.of === readOf ? lastRead.lastEventId : null;
  useEffect(() => {
    if (paid && !signedIn) return;
    const abort = new AbortController();
    const reader = { signedIn, consentId, clientId };
    paymentsApi.read(payment.paymentId, reader, abort.signal).then(
      (state) => {
        if (paid) {
          // Paid before the page opened: the consent read shows where the money came from
          // masked; the payer who paid reads it in full here (docs/payments.md "Who sees the
          // origin"), for the prompt to link it.
          const { payerBank } = state;
          if (payerBank) setOrigin((known) => known && { ...known, payerBank });
          return;
        }
        if (state.transferDetails) setDetails(state.transferDetails);
        if (state.method === 'card') setMethod('card');
        const resumed = resumedPayment({
          ...state,
          // A charge this page did not start (another tab's, without sign-in) is not its to answer.
          otpDisplayMessage: paymentsApi.answersCharge(payment.paymentId, reader)
            ? state.otpDisplayMessage
            : null,
        });
        for (const action of resumed.actions) dispatch(action);
        if (resumed.view === 'otp') setOtpMessage(state.otpDisplayMessage ?? '');
        if (resumed.view !== 'methods') setView(resumed.view);
        setLastRead({ of: readOf, lastEventId: state.lastEventId });
      },
      () => {
        if (!abort.signal.aborted) setLastRead({ of: readOf, lastEventId: 0 });
      },
    );
    return () => abort.abort();
    // Once per payment and payer: what happens after comes from the stream.
  }, [paid, readOf, payment.paymentId, signedIn, consentId, clientId]);

  usePaymentEvents(
    payment.paymentId,
    payer,
    // Followed while unpaid, so a payment made on another device shows here as it goes (spec §4
    // 'An unexecuted pending immediate payment waits for a live event'); not while the flow's
    // own grant debits a saved account, whose completion the flow answers.
    !paid && !flow?.savedAccountChosen,
    streamFrom,
    (event) => {
      if (event.payerBank) setPayerBank(event.payerBank);
      if (event.payerCard) setPayerCard(event.payerCard);
      if (event.status === 'completed') {
        setOrigin((known) => ({
          // A chip card read by the terminal is a card payment (docs/terminal.md).
          method:
            event.paymentType === 'card' || event.paymentType === 'chip_card' ? 'card' : 'transfer',
          payerBank: event.payerBank ?? null,
          shouldPromptBankAccountLinking: event.shouldPromptBankAccountLinking === true,
          shouldPromptCardLinking:
            event.shouldPromptCardLinking ?? known?.shouldPromptCardLinking ?? false,
        }));
      }
      // With the terminal open, the stream's news is the chip purchase's: it began, or it failed
      // in the terminal's modal, which says so to the payer.
      if (terminalOpen && event.status === 'in_progress') startAttempt('chip_card');
      if (terminalOpen && event.status === 'failed') {
        setAttempt((last) => last && { ...last, failed: true });
      }
      if (event.status === 'in_progress') {
        // A card's steps (OTP, 3-D Secure) are answered by its own calls and views.
        if (event.paymentType === 'card' || method === 'card') return;
        // The transfer in progress is the one the payer said they made, or one they made without
        // saying so: either way the processing view shows it.
        if (event.stepText === STEP_TEXT_AWAITING_TRANSFER) {
          dispatch({ type: 'transfer_confirmation_requested' });
        } else {
          dispatch({ type: 'in_progress' });
        }
        setView('processing');
      } else if (event.status === 'completed') {
        dispatch({ type: 'completed' });
        setView('processing');
      } else if (view === 'processing') {
        // A card's failures on the card, OTP and 3-D Secure views come with their own answers.
        dispatch({ type: 'failed', message: event.message });
      }
    },
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

  const openTransfer = useMutation({
    mutationFn: () => paymentsApi.openTransfer(payment.paymentId, payer),
    onSuccess: (answer) => {
      setDetails(answer.transferDetails);
      startAttempt('bank_transfer', answer.transferDetails.accountNumber);
    },
  });
  const confirmTransfer = useMutation({
    mutationFn: () => paymentsApi.confirmTransfer(payment.paymentId, payer),
    onSuccess: (answer) => {
      dispatch({ type: 'transfer_confirmation_requested' });
      if (answer.status === 'completed') dispatch({ type: 'completed' });
      setView('processing');
    },
  });

  const grant = useMutation({
    mutationFn: async () => {
      const request = flow
        ? flow.grantRequest({ type: method, paymentId: payment.paymentId })
        : payNowGrantRequest(consent, payment, method, signedIn);
      if (!signedIn) return paymentsApi.grant(consent.consentId, request);
      const signed = await signGrant(consent.consentId, request);
      return paymentsApi.grant(consent.consentId, {
        ...request,
        signature: { nonce: signed.nonce, response: signed.response },
      });
    },
    onSuccess: (answer) => {
      const outcome = grantOutcome(consent, answer);
      if (outcome.kind === 'success') {
        setTimeout(onGranted, CONSENT_REFRESH_AFTER_PAYMENT_MS);
      } else {
        onFailed(outcome.parentError);
      }
    },
    onError: (error) => onFailed(messageOf(error)),
  });
  const { mutate: sendGrant } = grant;
  const prompt =
    status.phase === 'completed' && origin
      ? afterPaymentPrompt({
          origin,
          signedIn,
          signedInWhenPaid,
          holdsChargeToken: paymentsApi.chargeTokenOf(payment.paymentId) !== null,
          granted: consent.status === 'granted',
          settled: promptSettled,
        })
      : null;
  const granting = useRef(false);
  useEffect(() => {
    if (status.phase !== 'completed' || granting.current || prompt) return;
    granting.current = true;
    sendGrant();
  }, [status.phase, sendGrant, prompt]);
  const settlePrompt = () => {
    setPromptStep('ask');
    setPromptSettled(true);
  };

  const outcome = grant.data ? grantOutcome(consent, grant.data) : null;
  const grantError = grant.error
    ? messageOf(grant.error)
    : outcome?.kind === 'failed'
      ? outcome.message
      : null;

  const payWithCard = useCallback(() => {
    // Back from a failure: the reducer's retry, so a later success can complete it.
    dispatch({ type: 'retry' });
    setMethod('card');
    setCardError(null);
    setOtpError(null);
    setView('card');
  }, []);

  const charge = async (
    cardDetails: TEncryptedCard,
    saveCard: boolean,
    card?: { obfuscatedCard: string },
  ) => {
    if (card) setStoredCard({ cardDetails, saveCard, obfuscatedCard: card.obfuscatedCard });
    startAttempt('card');
    setCardError(null);
    setSignedInWhenPaid(signedIn);
    setOrigin({
      method: 'card',
      payerBank: null,
      shouldPromptBankAccountLinking: false,
      shouldPromptCardLinking: saveCard,
    });
    try {
      const answer = await paymentsApi.chargeCard(payment.paymentId, payer, cardDetails, saveCard);
      if (answer.requiresOTP) {
        setOtpMessage(answer.displayMessage ?? '');
        setOtpError(null);
        setView('otp');
      } else if (answer.requires3DS && answer.challengeUrl) {
        setChallengeUrl(answer.challengeUrl);
        setView('three_ds');
      } else if (answer.success) {
        dispatch({ type: 'completed' });
        setView('processing');
      } else {
        dispatch({ type: 'failed', message: answer.message });
        setView('processing');
      }
    } catch (error) {
      // The bank's refusal is the payment failing; anything else is the form's to fix.
      if (error instanceof ApiError && isPaymentFailure(error.code)) {
        dispatch({ type: 'failed', message: error.message });
        setView('processing');
      } else {
        // Also for the stored card sent again: the form, to enter it (or another) anew.
        setCardError(messageOf(error));
        setView('card');
      }
    }
  };

  // 'Retry Payment', 'Try Again' and 'Pay with Card | {masked card}': the stored card again. From
  // 'Payment Failed' the reducer shows 'Retrying payment...'; from elsewhere, the line below.
  const retryCard = () => {
    if (resending) return;
    if (!storedCard) {
      payWithCard();
      setCardError(ERROR_CATALOGUE.NO_STORED_CARD_FOR_RETRY.message);
      return;
    }
    dispatch({ type: 'retry' });
    setMethod('card');
    setCardError(null);
    setOtpError(null);
    setResending(true);
    void charge(storedCard.cardDetails, storedCard.saveCard).finally(() => setResending(false));
  };

  const verifyOtp = async (otp: string) => {
    setVerifying(true);
    setOtpError(null);
    try {
      await paymentsApi.completeCard(payment.paymentId, payer, otp);
      dispatch({ type: 'completed' });
      setView('processing');
    } catch (error) {
      const message = messageOf(error);
      if (otpFailureAction(message) === 'restart') {
        // spec §4: 'Insufficient funds' cannot be fixed by another try: back to the start.
        dispatch({ type: 'cancel' });
        setView('methods');
      } else {
        setOtpError(message);
      }
    } finally {
      setVerifying(false);
    }
  };

  const payByTransfer = useCallback(() => {
    dispatch({ type: 'retry' });
    setMethod('transfer');
    setView('transfer');
    if (!details || new Date(details.expiresAt).getTime() <= Date.now()) openTransfer.mutate();
  }, [details, openTransfer]);

  if (prompt && promptStep === 'sign_in') {
    // The auth prompt is a screen of its own, with its own title; signed in, the page opens the
    // consent again, where the prompt's next step follows (spec §4).
    return <prompts.SignIn onAuthenticated={() => setPromptStep('ask')} />;
  }

  return (
    <section
      className={flow?.inSteps ? 'pay-now' : 'card-body pay-now'}
      {...(flow?.inSteps ? {} : { 'aria-labelledby': SCREEN_TITLE_ID })}
    >
      {flow?.inSteps ? null : (
        <div className="step-header">
          <h1 id={SCREEN_TITLE_ID}>Immediate Payment</h1>
          <span className={paid || status.phase === 'completed' ? 'badge done' : 'badge'}>
            {paid || status.phase === 'completed' ? 'Completed' : 'Pending'}
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
        <strong>{formatNaira(payment.amount)}</strong>{' '}
        {paid || status.phase === 'completed' ? 'paid' : 'due now'}
      </p>
      <p className="secondary-text">{payment.narration}</p>

      {view === 'methods' && flow ? flow.otherWays : null}
      {view === 'methods' ? (
        <div className="methods" role="group" aria-label="Payment methods">
          <button type="button" className="method" onClick={payByTransfer}>
            <span className="method-name">Pay by Transfer</span>
            <span className="secondary-text">Manual bank transfer</span>
          </button>
          {storedCard ? (
            <button
              type="button"
              className="method"
              onClick={retryCard}
              disabled={resending}
              aria-busy={resending}
            >
              <span className="method-name">Pay with Card | {storedCard.obfuscatedCard}</span>
              <span className="secondary-text">Credit or debit card</span>
            </button>
          ) : null}
          <button type="button" className="method" onClick={payWithCard}>
            <span className="method-name">Pay with Card</span>
            <span className="secondary-text">Credit or debit card</span>
          </button>
          {readerTransports.length > 0 ? (
            <button
              ref={terminalButton}
              type="button"
              className="method"
              aria-haspopup="dialog"
              onClick={() => {
                dispatch({ type: 'retry' });
                // Its answers are a card's: the stream's steps are the modal's to show.
                setMethod('card');
                setTerminalOpen(true);
              }}
            >
              <span className="method-name">Chip Card Terminal</span>
              <span className="secondary-text">Bluetooth EMV reader</span>
            </button>
          ) : null}
        </div>
      ) : null}

      {terminalOpen && status.phase !== 'completed' ? (
        <Suspense
          fallback={
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
              setTerminalOpen(false);
              // Back to the method that opened it, when it is still there (not once paid).
              setTimeout(() => terminalButton.current?.focus(), 0);
            }}
          />
        </Suspense>
      ) : null}

      {view === 'transfer' ? (
        details ? (
          <TransferDetailsView
            key={details.accountNumber}
            details={details}
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
            onBack={() => setView('methods')}
          />
        ) : openTransfer.isError ? (
          <div role="alert" className="failure">
            <p>{messageOf(openTransfer.error)}</p>
            <Button onClick={() => openTransfer.mutate()}>Try Again</Button>
          </div>
        ) : (
          <p className="loading-line" role="status">
            <Spinner small /> Getting your transfer account...
          </p>
        )
      ) : null}

      {view === 'card' ? (
        <CardFormView onSubmit={charge} error={cardError} onBack={() => setView('methods')} />
      ) : null}

      {view === 'otp' ? (
        <OtpView
          // A new charge's OTP screen starts afresh: empty boxes, its own countdown.
          key={attempt?.n}
          displayMessage={otpMessage}
          verifying={verifying}
          error={otpError}
          onVerify={(otp) => void verifyOtp(otp)}
          onRetry={retryCard}
        />
      ) : null}
      {resending && view !== 'processing' ? (
        <p className="loading-line" role="status">
          <Spinner small /> {STEP_TEXT_RETRYING}
        </p>
      ) : null}

      {view === 'three_ds' && challengeUrl ? (
        <ThreeDsView
          challengeUrl={challengeUrl}
          onOpened={() => {
            dispatch({ type: 'three_ds_started' });
            setView('processing');
          }}
        />
      ) : null}

      {view === 'processing' ? (
        <>
          <ProcessingView
            state={status}
            source={paymentSourceText({ method, payerBank, payerCard })}
            showTransferDetails={method === 'transfer'}
            onCancel={() => {
              dispatch({ type: 'cancel' });
              setView('methods');
            }}
            onViewTransferDetails={() => {
              setView('transfer');
              // A transfer another device started: its open account is asked for (the same one).
              if (!details) openTransfer.mutate();
            }}
            onRetry={method === 'card' ? retryCard : payByTransfer}
            onTryAnotherMethod={() => {
              dispatch({ type: 'cancel' });
              setView('methods');
            }}
          />
          {prompt ? (
            <AfterPaymentPrompt
              prompt={prompt}
              amount={payment.amount}
              paymentId={payment.paymentId}
              prompts={prompts}
              step={promptStep}
              onStep={setPromptStep}
              onSettled={settlePrompt}
            />
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
