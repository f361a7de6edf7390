import {
  OTP_RETRY_AFTER_MS,
  PANEL_RESET_AFTER_SUCCESS_MS,
  PROGRESS_AWAITING_3DS,
  PROGRESS_COMPLETE,
  PROGRESS_LINKING_ADVANCED,
  PROGRESS_LINKING_STARTED,
  SUCCESS_UI_MS,
  VALIDATING_CANCEL_AFTER_MS,
} from './constants';
import {
  BVN_FORM_INITIAL,
  bvnFormReducer,
  type TBvnFormAction,
  type TBvnFormState,
} from './bvn-form';
import { ERROR_CATALOGUE, type TErrorCode } from './errors';
import { mandateFormOfLink, type TMandateForm } from './paper-mandate';
import type { TAccountLink } from './schemas/account-link';
import type { TCardChargeResponse, TCardLinkingEvent } from './schemas/card';
import type { TBankValidationResult, TUserAccount } from './schemas/user-account';

/** The account being linked: from the payer's list or found by manual entry. */
export type TLinkingAccount = Pick<
  TUserAccount,
  'accountNumber' | 'accountName' | 'bankName' | 'institutionCode' | 'integrations'
>;

/** Where the account came from; it decides where Back from error goes (spec §4). */
export type TLinkingSource = 'list' | 'manual';

/** What the card_entry step shows (spec §2 card_entry). */
export type TCardEntryView =
  /** The card form ('Link Account with Card'). */
  | 'card_form'
  /** The card OTP screen. */
  | 'otp'
  /** The 3-D Secure screen with 'Continue to Authentication'. */
  | 'three_ds'
  /** The alternate-service verification form ('Complete Account Verification'). */
  | 'verification';

export type TLinkingContext = {
  source: TLinkingSource;
  account: TLinkingAccount;
  /** The panel was opened to link by card whatever the account supports. */
  forceCardFlow: boolean;
  /** Card-capable account or forced card flow (spec §4): linking goes through card_entry. */
  cardFlow: boolean;
};

/** Where the panel carries on once the payer's BVN is verified. */
export type TBvnResume =
  /** Choosing an account: the panel opened for a payer with no verified BVN. */
  | { to: 'select'; forceCardFlow: boolean; manualEntry: boolean }
  /** The account the payer was linking, when its link call answered BVN_NOT_VERIFIED. */
  | { to: 'account'; context: TLinkingContext };

/** What the linking step is waiting for. */
export type TLinkingPhase =
  /** The account-link call ('Processing Account Linking'). */
  | 'creating_link'
  /** The payer completing 3-D Secure in another tab ('Awaiting 3D Secure Authentication'). */
  | 'awaiting_3ds'
  /** Card-linking progress events from the server ('Processing card linking...'). */
  | 'processing_card';

/** What the panel does after its success screen, and when (spec §4). */
export type TLinkingFollowUp = { action: 'reset' | 'close'; delayMs: number };

export type TLinkingPanelState =
  /** The panel is not shown. Closing resets everything; the page closes the event stream. */
  | { step: 'closed' }
  /** Choosing an account: the list, or manual entry when `manualEntry` (spec §2 select). */
  | { step: 'select'; forceCardFlow: boolean; manualEntry: boolean }
  /**
   * 'Verify your BVN' (docs/identity.md "The BVN"): asked once, the first time linking needs it
   * (the panel opened for a payer with none, or a link call answered BVN_NOT_VERIFIED); then the
   * panel carries on at `resume`.
   */
  | { step: 'bvn'; form: TBvnFormState; resume: TBvnResume }
  /** Work with the server under way, as `phase` says (spec §2 linking). */
  | {
      step: 'linking';
      context: TLinkingContext;
      phase: TLinkingPhase;
      progress: number;
      progressText: string | null;
      paymentId: string | null;
    }
  /** 'Complete Account Linking': the payer makes the test transfer (spec §2 payment). `notice`
   * fills the 'Payment Status' box. */
  | { step: 'payment'; context: TLinkingContext; accountLink: TAccountLink; notice: string | null }
  /** 'Confirming Payment': the transfer is being confirmed (spec §2 confirming). */
  | { step: 'confirming'; context: TLinkingContext; accountLink: TAccountLink }
  /** Card form, OTP, 3DS or verification form (spec §2 card_entry). `busy` while a call runs:
   * only one linking attempt runs at once (spec §5). `error` fills the 'Card Linking Error' box. */
  | {
      step: 'card_entry';
      context: TLinkingContext;
      accountLink: TAccountLink | null;
      view: TCardEntryView;
      /** Kobo; 0 for a linking card charge, whose test amount the server picks (spec §4). */
      amount: number;
      paymentId: string | null;
      challengeUrl: string | null;
      displayMessage: string | null;
      /** When the OTP screen may offer its retry option, after it is shown. */
      otpRetryAfterMs: number | null;
      busy: boolean;
      error: string | null;
    }
  /**
   * 'Account Linked Successfully!', then `followUp` (spec §2 success). A paper or bank mandate's
   * instead says what happens next and offers its form or the bank's page (`mandateForm`), with no
   * follow-up: it stays until the payer closes it (src/domain/paper-mandate.ts).
   */
  | {
      step: 'success';
      context: TLinkingContext;
      progress: number;
      progressText: string | null;
      followUp: TLinkingFollowUp | null;
      mandateForm: TMandateForm | null;
    }
  /** 'Account Linking Failed' with the message and a Back button (spec §2 error). */
  | { step: 'error'; context: TLinkingContext; message: string };

export type TLinkingStep = TLinkingPanelState['step'];

export type TLinkingPanelAction =
  | { type: 'open'; forceCardFlow?: boolean }
  | { type: 'close' }
  | { type: 'manual_entry_opened' }
  /** The payer has no verified BVN (GET /api/identity/bvn answered none). */
  | { type: 'bvn_required' }
  /** The BVN step's form (src/domain/bvn-form.ts). */
  | { type: 'bvn_form'; action: TBvnFormAction }
  | { type: 'account_chosen'; account: TLinkingAccount; source: TLinkingSource }
  /** The account-link call answered; null when no call was needed (card flow). */
  | { type: 'link_resolved'; accountLink: TAccountLink | null }
  /** The account-link call failed; `code`, the catalogue's, when the server refused it. */
  | { type: 'link_failed'; message?: string | null | undefined; code?: TErrorCode | undefined }
  /** "I've made the transfer". */
  | { type: 'transfer_confirm_requested' }
  | { type: 'confirm_result'; success: boolean; status?: string | undefined; message?: string }
  /** Account-link progress stream. */
  | { type: 'link_progress'; status: 'completed' | 'failed'; message?: string | undefined }
  | { type: 'card_submitted' }
  | { type: 'card_response'; response: TCardChargeResponse }
  | { type: 'card_failed'; message?: string | null | undefined; code?: TErrorCode | undefined }
  /** 'Try Again' in the 'Card Linking Error' box. */
  | { type: 'card_retry' }
  /** 'Try Again' or 'Retry Payment' on the OTP screen: the card's details again. */
  | { type: 'card_details_requested' }
  /** 'Continue to Authentication' opened the challenge. */
  | { type: 'three_ds_started' }
  /** Card-linking stream. */
  | { type: 'card_linking_event'; event: TCardLinkingEvent }
  | { type: 'otp_submitted' }
  | { type: 'otp_result'; success: boolean; message?: string | undefined }
  | { type: 'verification_submitted' }
  /** The verification form's answer; `code`, the catalogue's, when the server refused it. */
  | {
      type: 'verification_result';
      success: boolean;
      message?: string | undefined;
      code?: TErrorCode | undefined;
    }
  | { type: 'back' }
  /** followUp.delayMs after success; the page's timer sends it. */
  | { type: 'success_delay_elapsed' };

/** The timings the page schedules around this reducer (spec §4, §9). */
export const LINKING_PANEL_TIMINGS = {
  resetAfterSuccessMs: PANEL_RESET_AFTER_SUCCESS_MS,
  closeAfterSuccessMs: SUCCESS_UI_MS,
  otpRetryAfterMs: OTP_RETRY_AFTER_MS,
  validatingCancelAfterMs: VALIDATING_CANCEL_AFTER_MS,
} as const;

export const LINKING_PANEL_INITIAL: TLinkingPanelState = { step: 'closed' };

const RESET_AFTER: TLinkingFollowUp = {
  action: 'reset',
  delayMs: LINKING_PANEL_TIMINGS.resetAfterSuccessMs,
};
const CLOSE_AFTER: TLinkingFollowUp = {
  action: 'close',
  delayMs: LINKING_PANEL_TIMINGS.closeAfterSuccessMs,
};

const succeed = (
  context: TLinkingContext,
  followUp: TLinkingFollowUp,
  progressText: string | null = null,
): Extract<TLinkingPanelState, { step: 'success' }> => ({
  step: 'success',
  context,
  progress: PROGRESS_COMPLETE,
  progressText,
  followUp,
  mandateForm: null,
});

const fail = (
  context: TLinkingContext,
  message: string | null | undefined,
): TLinkingPanelState => ({
  step: 'error',
  context,
  message: message?.trim() || ERROR_CATALOGUE.ACCOUNT_LINKING_FAILED.message,
});

const cardEntry = (
  context: TLinkingContext,
  accountLink: TAccountLink | null,
  view: TCardEntryView,
): Extract<TLinkingPanelState, { step: 'card_entry' }> => ({
  step: 'card_entry',
  context,
  accountLink,
  view,
  amount: 0,
  paymentId: null,
  challengeUrl: null,
  displayMessage: null,
  otpRetryAfterMs: null,
  busy: false,
  error: null,
});

const select = (forceCardFlow: boolean, manualEntry: boolean): TLinkingPanelState => ({
  step: 'select',
  forceCardFlow,
  manualEntry,
});

const askBvn = (resume: TBvnResume): TLinkingPanelState => ({
  step: 'bvn',
  form: BVN_FORM_INITIAL,
  resume,
});

/** The linking step of an account, its link call about to be made (spec §4 select to linking). */
const creatingLink = (context: TLinkingContext): TLinkingPanelState => ({
  step: 'linking',
  context,
  phase: 'creating_link',
  progress: 0,
  progressText: null,
  paymentId: null,
});

/** The BVN step's form moved on: once the BVN is verified, the panel carries on where it was. */
function onBvnForm(
  state: Extract<TLinkingPanelState, { step: 'bvn' }>,
  action: TBvnFormAction,
): TLinkingPanelState {
  const form = bvnFormReducer(state.form, action);
  if (form === state.form) return state;
  if (form.phase !== 'verified') return { ...state, form };
  const { resume } = state;
  return resume.to === 'select'
    ? select(resume.forceCardFlow, resume.manualEntry)
    : creatingLink(resume.context);
}

/** Where a resolved account link leads (spec §4 "select to linking. Then:"), in the spec's order. */
function afterLinkResolved(
  context: TLinkingContext,
  accountLink: TAccountLink | null,
): TLinkingPanelState {
  if (context.cardFlow) return cardEntry(context, accountLink, 'card_form');
  if (accountLink?.payInDetails) {
    return { step: 'payment', context, accountLink, notice: null };
  }
  if (accountLink && accountLink.authParams.length > 0) {
    return cardEntry(context, accountLink, 'verification');
  }
  // A paper or bank mandate waits for its bank: the form or the bank's page stays offered until
  // the payer closes the panel.
  const mandateForm = mandateFormOfLink(accountLink);
  if (mandateForm) return { ...succeed(context, RESET_AFTER), followUp: null, mandateForm };
  return succeed(context, RESET_AFTER);
}

/**
 * The refusals of the verification form that end the link (docs/accounts.md): too many wrong
 * answers cancelled it, or it was cancelled or expired meanwhile. The form cannot succeed any
 * more: the panel goes to its error step (spec §2 error), whose Back starts again.
 */
const LINK_ENDED_CODES: readonly TErrorCode[] = [
  'AUTH_PARAMS_LOCKED',
  'ACCOUNT_LINK_CANCELLED',
  'ACCOUNT_LINK_EXPIRED',
];

// spec §4: a pending status, or a message saying so, means the transfer has not arrived yet.
const isNotYetConfirmed = (status: string | undefined, message: string | undefined): boolean =>
  status === 'pending' || /not yet confirmed/i.test(message ?? '');

function onConfirmResult(
  state: Extract<TLinkingPanelState, { step: 'confirming' }>,
  action: Extract<TLinkingPanelAction, { type: 'confirm_result' }>,
): TLinkingPanelState {
  if (isNotYetConfirmed(action.status, action.message)) {
    return {
      step: 'payment',
      context: state.context,
      accountLink: state.accountLink,
      notice: action.message || ERROR_CATALOGUE.PAYMENT_NOT_YET_CONFIRMED.message,
    };
  }
  if (action.success) return succeed(state.context, CLOSE_AFTER);
  return fail(state.context, action.message || ERROR_CATALOGUE.ACCOUNT_LINK_CONFIRM_FAILED.message);
}

function onCardResponse(
  state: Extract<TLinkingPanelState, { step: 'card_entry' }>,
  response: TCardChargeResponse,
): TLinkingPanelState {
  if (!response.success) {
    return {
      ...state,
      busy: false,
      error: response.message || ERROR_CATALOGUE.CARD_LINK_FAILED.message,
    };
  }
  const charged = {
    ...state,
    busy: false,
    error: null,
    paymentId: response.paymentId ?? state.paymentId,
    amount: response.amount ?? state.amount,
    displayMessage: response.displayMessage ?? null,
  };
  if (response.requires3DS === true && response.challengeUrl) {
    return { ...charged, view: 'three_ds', challengeUrl: response.challengeUrl };
  }
  if (response.requiresOTP === true) {
    return { ...charged, view: 'otp', otpRetryAfterMs: LINKING_PANEL_TIMINGS.otpRetryAfterMs };
  }
  return succeed(state.context, CLOSE_AFTER);
}

function onCardLinkingEvent(
  state: TLinkingPanelState,
  event: TCardLinkingEvent,
): TLinkingPanelState {
  if (
    state.step !== 'card_entry' &&
    !(state.step === 'linking' && state.phase !== 'creating_link')
  ) {
    return state;
  }
  // The stream is the payer's, shared by all their card links: the panel acts only on events of
  // its own attempt, whose id the card call answered with. Before that answer every event is
  // another attempt's (an earlier link, another tab); this attempt's answer settles it anyway.
  if (state.paymentId === null || event.paymentId !== state.paymentId) return state;
  switch (event.event) {
    case 'card_linking_success':
      return succeed(state.context, CLOSE_AFTER, 'Card linking completed!');
    case 'card_linking_error':
      return fail(state.context, event.error || ERROR_CATALOGUE.CARD_LINKING_FAILED.message);
    case 'card_linking_progress':
      return {
        step: 'linking',
        context: state.context,
        phase: 'processing_card',
        paymentId: event.paymentId,
        progress:
          state.step === 'linking' && state.progress >= PROGRESS_LINKING_STARTED
            ? PROGRESS_LINKING_ADVANCED
            : PROGRESS_LINKING_STARTED,
        progressText: 'Processing card linking...',
      };
    case 'card_linking_failed':
      return {
        ...cardEntry(
          state.context,
          state.step === 'card_entry' ? state.accountLink : null,
          'card_form',
        ),
        error: event.error || ERROR_CATALOGUE.CARD_LINKING_FAILED.message,
      };
    default: {
      const unhandled: never = event;
      throw new Error(`Unhandled card-linking event ${JSON.stringify(unhandled)}`);
    }
  }
}

/**
 * The account-linking panel's state machine (spec §4 Account-linking panel). An action a step
 * does not accept returns the same state object, which is how "only one linking attempt runs at
 * once" (spec §5) holds: a second submit while busy changes nothing.
 */
export function linkingPanelReducer(
  state: TLinkingPanelState,
  action: TLinkingPanelAction,
): TLinkingPanelState {
  switch (action.type) {
    case 'open':
    case 'close':
    case 'manual_entry_opened':
    case 'bvn_required':
    case 'bvn_form':
    case 'account_chosen':
      return onChoosing(state, action);
    case 'link_resolved':
    case 'link_failed':
      return onLinkAsked(state, action);
    case 'transfer_confirm_requested':
    case 'confirm_result':
    case 'link_progress':
      return onTransfer(state, action);
    case 'card_submitted':
    case 'card_response':
    case 'card_failed':
    case 'card_retry':
    case 'card_details_requested':
    case 'three_ds_started':
    case 'card_linking_event':
      return onCardEntry(state, action);
    case 'otp_submitted':
    case 'otp_result':
    case 'verification_submitted':
    case 'verification_result':
      return onCardChecks(state, action);
    case 'back':
    case 'success_delay_elapsed':
      return onLeaving(state, action);
    default: {
      const unhandled: never = action;
      throw new Error(`Unhandled linking-panel action ${JSON.stringify(unhandled)}`);
    }
  }
}

/** Opening and closing the panel, and choosing the account to link (the BVN asked on the way). */
function onChoosing(
  state: TLinkingPanelState,
  action: Extract<
    TLinkingPanelAction,
    {
      type:
        'open' | 'close' | 'manual_entry_opened' | 'bvn_required' | 'bvn_form' | 'account_chosen';
    }
  >,
): TLinkingPanelState {
  switch (action.type) {
    case 'open':
      return state.step === 'closed' ? select(action.forceCardFlow === true, false) : state;
    case 'close':
      return LINKING_PANEL_INITIAL;
    case 'manual_entry_opened':
      return state.step === 'select' ? { ...state, manualEntry: true } : state;
    case 'bvn_required':
      return state.step === 'select'
        ? askBvn({
            to: 'select',
            forceCardFlow: state.forceCardFlow,
            manualEntry: state.manualEntry,
          })
        : state;
    case 'bvn_form':
      return state.step === 'bvn' ? onBvnForm(state, action.action) : state;
    case 'account_chosen':
      if (state.step !== 'select') return state;
      return creatingLink({
        source: action.source,
        account: action.account,
        forceCardFlow: state.forceCardFlow,
        cardFlow: state.forceCardFlow || action.account.integrations.card?.possible === true,
      });
  }
}

/** The account link asked for the chosen account: resolved, or refused. */
function onLinkAsked(
  state: TLinkingPanelState,
  action: Extract<TLinkingPanelAction, { type: 'link_resolved' | 'link_failed' }>,
): TLinkingPanelState {
  switch (action.type) {
    case 'link_resolved':
      return state.step === 'linking' && state.phase === 'creating_link'
        ? afterLinkResolved(state.context, action.accountLink)
        : state;
    case 'link_failed':
      if (state.step !== 'linking' || state.phase !== 'creating_link') return state;
      // docs/identity.md: the page asks for the BVN, and carries on with this account.
      if (action.code === 'BVN_NOT_VERIFIED') {
        return askBvn({ to: 'account', context: state.context });
      }
      return fail(
        state.context,
        action.message || ERROR_CATALOGUE.ACCOUNT_LINK_CREATE_FAILED.message,
      );
  }
}

/** Linking by transfer: the payer confirms the payment, the server says how the link went. */
function onTransfer(
  state: TLinkingPanelState,
  action: Extract<
    TLinkingPanelAction,
    { type: 'transfer_confirm_requested' | 'confirm_result' | 'link_progress' }
  >,
): TLinkingPanelState {
  switch (action.type) {
    case 'transfer_confirm_requested':
      if (state.step !== 'payment') return state;
      // spec §5: confirmation needs an account link id.
      if (!state.accountLink.id) {
        return { ...state, notice: ERROR_CATALOGUE.NO_ACCOUNT_LINK_ID.message };
      }
      return { step: 'confirming', context: state.context, accountLink: state.accountLink };
    case 'confirm_result':
      return state.step === 'confirming' ? onConfirmResult(state, action) : state;
    case 'link_progress':
      if (state.step !== 'payment' && state.step !== 'confirming') return state;
      return action.status === 'completed'
        ? succeed(state.context, CLOSE_AFTER)
        : fail(state.context, action.message);
  }
}

/** Linking by card: the card sent, its answer, a retry, 3-D Secure and the card-linking stream. */
function onCardEntry(
  state: TLinkingPanelState,
  action: Extract<
    TLinkingPanelAction,
    {
      type:
        | 'card_submitted'
        | 'card_response'
        | 'card_failed'
        | 'card_retry'
        | 'card_details_requested'
        | 'three_ds_started'
        | 'card_linking_event';
    }
  >,
): TLinkingPanelState {
  switch (action.type) {
    case 'card_submitted': {
      if (state.step !== 'card_entry' || state.busy) return state;
      if (state.view !== 'card_form' && state.view !== 'otp') return state;
      // spec §5: card linking needs the account the card is saved to.
      const { accountNumber, institutionCode } = state.context.account;
      if (!accountNumber || !institutionCode) {
        return { ...state, error: ERROR_CATALOGUE.NO_ACCOUNT_DETAILS_FOR_CARD_LINKING.message };
      }
      return { ...state, busy: true, error: null };
    }
    case 'card_response':
      return state.step === 'card_entry' && state.busy
        ? onCardResponse(state, action.response)
        : state;
    case 'card_failed':
      if (state.step === 'card_entry' && state.busy && action.code === 'BVN_NOT_VERIFIED') {
        return askBvn({ to: 'account', context: state.context });
      }
      return state.step === 'card_entry' && state.busy
        ? {
            ...state,
            busy: false,
            error: action.message?.trim() || ERROR_CATALOGUE.CARD_LINK_FAILED.message,
          }
        : state;
    case 'card_retry':
      return state.step === 'card_entry' && !state.busy && state.error !== null
        ? { ...state, error: null }
        : state;
    case 'card_details_requested':
      if (state.step !== 'card_entry' || state.view !== 'otp' || state.busy) return state;
      return cardEntry(state.context, state.accountLink, 'card_form');
    case 'three_ds_started':
      if (state.step !== 'card_entry' || state.view !== 'three_ds') return state;
      return {
        step: 'linking',
        context: state.context,
        phase: 'awaiting_3ds',
        paymentId: state.paymentId,
        progress: PROGRESS_AWAITING_3DS,
        progressText: 'Awaiting 3D Secure authentication...',
      };
    case 'card_linking_event':
      return onCardLinkingEvent(state, action.event);
  }
}

/** The card's checks: the OTP the bank sent, or the answers to its verification questions. */
function onCardChecks(
  state: TLinkingPanelState,
  action: Extract<
    TLinkingPanelAction,
    { type: 'otp_submitted' | 'otp_result' | 'verification_submitted' | 'verification_result' }
  >,
): TLinkingPanelState {
  switch (action.type) {
    case 'otp_submitted':
      if (state.step !== 'card_entry' || state.view !== 'otp' || state.busy) return state;
      // spec §5: OTP needs a payment id.
      if (state.paymentId === null) {
        return { ...state, error: ERROR_CATALOGUE.NO_PAYMENT_ID_FOR_OTP.message };
      }
      return { ...state, busy: true, error: null };
    case 'otp_result':
      if (state.step !== 'card_entry' || state.view !== 'otp' || !state.busy) return state;
      return action.success
        ? succeed(state.context, RESET_AFTER)
        : {
            ...state,
            view: 'card_form',
            busy: false,
            otpRetryAfterMs: null,
            error: action.message || ERROR_CATALOGUE.OTP_VERIFICATION_FAILED.message,
          };
    case 'verification_submitted':
      if (state.step !== 'card_entry' || state.view !== 'verification' || state.busy) return state;
      // spec §5: alternate auth needs a transaction reference.
      if (!state.accountLink?.remitaTransRef) {
        return { ...state, error: ERROR_CATALOGUE.NO_REMITA_TRANSACTION_REFERENCE.message };
      }
      return { ...state, busy: true, error: null };
    case 'verification_result':
      if (state.step !== 'card_entry' || state.view !== 'verification' || !state.busy) {
        return state;
      }
      if (action.success) return succeed(state.context, CLOSE_AFTER);
      if (action.code && LINK_ENDED_CODES.includes(action.code)) {
        return fail(state.context, action.message || ERROR_CATALOGUE[action.code].message);
      }
      return {
        ...state,
        busy: false,
        error: action.message || ERROR_CATALOGUE.ACCOUNT_VERIFY_FAILED.message,
      };
  }
}

/** 'Back' from a step, and the follow-up after a success. */
function onLeaving(
  state: TLinkingPanelState,
  action: Extract<TLinkingPanelAction, { type: 'back' | 'success_delay_elapsed' }>,
): TLinkingPanelState {
  switch (action.type) {
    case 'back':
      // The BVN step goes back to where the payer came from: choosing an account, or nothing.
      if (state.step === 'bvn') {
        return state.resume.to === 'account'
          ? select(state.resume.context.forceCardFlow, state.resume.context.source === 'manual')
          : LINKING_PANEL_INITIAL;
      }
      // spec §4: back from error returns a manual entry to select, otherwise closes the panel.
      if (state.step === 'error') {
        return state.context.source === 'manual'
          ? select(state.context.forceCardFlow, true)
          : LINKING_PANEL_INITIAL;
      }
      // The verification form's 'Back' returns to choosing an account.
      if (state.step === 'card_entry' && state.view === 'verification' && !state.busy) {
        return select(state.context.forceCardFlow, state.context.source === 'manual');
      }
      return state;
    case 'success_delay_elapsed':
      if (state.step !== 'success' || !state.followUp) return state;
      return state.followUp.action === 'reset'
        ? select(state.context.forceCardFlow, false)
        : LINKING_PANEL_INITIAL;
  }
}

/** An account's key: the same number at the same bank is the same account. */
const sameAccount = (a: TUserAccount, b: TUserAccount): boolean =>
  a.accountNumber !== null &&
  a.accountNumber === b.accountNumber &&
  a.institutionCode === b.institutionCode;

/**
 * The select step's accounts (spec §2 "Lists linkable accounts"): the payer's own, as they are,
 * then the accounts under the payer's verified BVN not among them yet, each of which the payer
 * may choose to link. An account the bank does not hold under the payer's BVN is left out; one
 * whose holder the bank did not name is listed, and checked by the provider when it is linked.
 */
export function accountsToList(
  accounts: readonly TUserAccount[],
  bvnAccounts: readonly TBankValidationResult[],
): TUserAccount[] {
  const added = bvnAccounts.filter(
    (found) =>
      (found.ownership === 'yours' || found.ownership === 'to_check') &&
      !accounts.some((own) => sameAccount(own, found)),
  );
  return [...accounts, ...added];
}
