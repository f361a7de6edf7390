// The Immediate Payment screen's state and what may happen to it (spec §2, §4): the views, the
// payer's card and method, the payment's status and the latest attempt, and every action.
import type { TPaidOrigin } from './after-payment';
import { type TPaymentAttempt } from './embed-payment-report';
import type { TTerminalPaymentNews } from './pushed-terminal';
import { type TPaymentStatusState } from './payment-status';
import type {
  TCardChargeResponse,
  TCardCompleteResponse,
  TEncryptedCard,
  TPayerBank,
  TPayerCard,
} from './schemas/card';
import type {
  TPaymentAttemptState,
  TPaymentStateResponse,
  TPaymentStatusEvent,
  TTransferDetails,
} from './schemas/payment';

export type TReturned = NonNullable<TPaymentAttemptState['returned']>;

export type TPayNowView =
  | 'methods'
  | 'transfer'
  | 'card'
  /** The card's issuer asked for its PIN ('Enter Card PIN'): the card went with its details. */
  | 'card_pin'
  | 'otp'
  | 'three_ds'
  | 'processing';

/** The views of Pay with Card's own steps. */
const CARD_STEP_VIEWS: readonly TPayNowView[] = ['card', 'card_pin', 'otp', 'three_ds'];

/**
 * Whether the screen draws Pay with Card's steps: at one of them, or while Retry Payment sends the
 * card again from wherever the payer is (its 'retrying' line), short of the processing view.
 */
export const showsCardSteps = (state: Pick<TPayNowState, 'view' | 'card'>): boolean =>
  CARD_STEP_VIEWS.includes(state.view) || (state.card.resending && state.view !== 'processing');

/** The card entered on this page last, as it was sent (envelopes only), and how it shows. */
export type TStoredCard = {
  cardDetails: TEncryptedCard;
  saveCard: boolean;
  obfuscatedCard: string;
};

export type TPayNowState = {
  view: TPayNowView;
  method: 'transfer' | 'card';
  /** The progress ring's state (spec §4 Payment status). */
  status: TPaymentStatusState;
  /** The amount due, in kobo: what a returned transfer is told against. */
  amountDue: number;
  /** The latest attempt as the server last told it (read or event); null before any. */
  attempt: TPaymentAttemptState | null;
  /** Each transfer sent back since the page opened, in the order the page heard of them. */
  returns: TReturned[];
  /** Whether the payment's read has been applied (a reload resumes from it once). */
  resumed: boolean;
  /** The one-time account last shown, and whether the server ended it (then shown expired). */
  details: TTransferDetails | null;
  detailsEnded: boolean;
  payerBank: TPayerBank | null;
  payerCard: TPayerCard | null;
  /**
   * In memory only, for 'Retry Payment' and 'Pay with Card | {masked card}'; never stored. A card
   * refused for insufficient funds is dropped when the payer turns to another method.
   */
  storedCard: TStoredCard | null;
  card: {
    /** The form's error (a refusal the form can fix, or no stored card to retry). */
    error: string | null;
    /** A charge is on its way to the bank and has not come back. */
    charging: boolean;
    /** ...for long enough that the page says the bank is still answering. */
    slow: boolean;
    /** The stored card is being sent again. */
    resending: boolean;
  };
  otp: {
    displayMessage: string;
    error: string | null;
    verifying: boolean;
    /** A refused OTP ended its charge: the boxes go, only Retry Payment is left. */
    ended: boolean;
    /** Each OTP screen of a new charge starts afresh (empty boxes, its own countdown). */
    round: number;
  };
  threeDs: { challengeUrl: string | null; expiresAt: string | null };
  /** Where the money came from, for the prompts after the payment (spec §3 origin). */
  origin: TPaidOrigin | null;
  /** Only a card charged while signed in was kept by the server to be saved. */
  signedInWhenPaid: boolean;
  prompt: { settled: boolean; step: 'ask' | 'sign_in' | 'link' };
  terminalOpen: boolean;
  /**
   * What the payment's stream said last while the terminal's modal was open, numbered: a pushed
   * terminal's modal learns from it that the card was approved or declined there.
   */
  terminalNews: { seq: number; news: TTerminalPaymentNews } | null;
  /** The latest way of paying begun here, as the embedding parent is told of it. */
  report: TPaymentAttempt | null;
  /**
   * The charge this page sent that its bank had not answered when the call came back ('charging'):
   * the step its issuer asks for later (a PIN, an OTP, 3-D Secure), heard on the stream or read,
   * is shown as the call's own answer would have shown it.
   */
  awaitedCharge: string | null;
};

export type TPayNowAction =
  /** The payment's read (GET /api/payments/{id}): a page opened mid-payment resumes there. */
  | {
      type: 'read';
      read: TPaymentStateResponse;
      answersCharge: boolean;
      /** The card this tab charged whose charge asked for its PIN, as it kept it; null for none. */
      pinCard?: TStoredCard | null;
      /** The page opened again on the way back from a 3-D Secure check it opened in its own
       * window (an app's browser). */
      backFromChallenge?: boolean;
    }
  /** An event of the payment's stream (or the poll that stands in for it). */
  | { type: 'event'; event: TPaymentStatusEvent }
  | { type: 'pay_by_transfer' }
  | { type: 'transfer_opened'; details: TTransferDetails }
  /** 'I have made the transfer' answered. */
  | { type: 'transfer_confirmed'; status: 'in_progress' | 'completed' }
  | { type: 'view_transfer_details' }
  /** 'back' from the transfer details or the card form. */
  | { type: 'back' }
  | { type: 'pay_with_card' }
  /** A card sent: a new one (with how it shows), or the stored one again. */
  | { type: 'card_submitted'; card: TStoredCard | null; signedIn: boolean }
  /** The charge has been out for CARD_SLOW_AFTER_MS. */
  | { type: 'card_slow' }
  | { type: 'card_answered'; answer: TCardChargeResponse }
  /** The PIN the card's issuer asked for, sent with the card that is waiting for it. */
  | { type: 'pin_submitted' }
  /** The charge call answered an error: the bank's refusal, or one the form must fix. */
  | {
      type: 'card_refused';
      message: string;
      paymentFailure: boolean;
      /** The envelopes sent can never go through (isUnusableCardEnvelope): not kept to resend. */
      unusableEnvelope?: boolean;
    }
  /** 'Retry Payment', 'Try Again', 'Pay with Card | {masked card}'. */
  | { type: 'retry_card' }
  | { type: 'otp_verifying' }
  /**
   * The OTP call answered: paid, or (its bank not answering) the charge `transactionReference`
   * still charging, followed as a charge that is.
   */
  | { type: 'otp_verified'; answer: Pick<TCardCompleteResponse, 'status' | 'transactionReference'> }
  | { type: 'otp_refused'; message: string }
  | { type: 'three_ds_opened' }
  /** The 3-D Secure attempt cancelled on the server: back to the methods. */
  /** The cancel call's answer: the attempt as it ended (completed if the bank answered first). */
  | { type: 'three_ds_cancelled'; attempt: TPaymentAttemptState }
  /** 'cancel' or 'Try Another Method'. */
  | { type: 'cancel' }
  | { type: 'terminal_opened' }
  | { type: 'terminal_closed' }
  | { type: 'prompt_step'; step: 'ask' | 'sign_in' | 'link' }
  | { type: 'prompt_settled' }
  | { type: 'pulse' }
  | { type: 'completion_delay_elapsed' };
