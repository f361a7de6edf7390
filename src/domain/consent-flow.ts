import { isOriginAccount } from './origin-privacy';
import { consentButton, isConsentButtonDisabled, type TConsentButton } from './consent-button';
import { consentSteps, type TConsentStep } from './consent-steps';
import { dataSharingChips, requestedDataCategories } from './data-sharing';
import { paymentGrantsConsent } from './granted-by-payment';
import { formatErrorMessage } from './errors';
import { formatLagosDateTime } from './payment-date';
import type { TPayerBank } from './schemas/card';
import type { TConsent } from './schemas/consent';
import type { TGrantRequest } from './schemas/consent-api';
import type { TUserAccount } from './schemas/user-account';

/*
 * The main consent flow (spec §2 "Main consent flow", §4 "Consent flow"): the consent's steps in
 * the spec's order, the one open now, those done, the accounts chosen for repayment and for the
 * immediate payment, and where the grant stands. The page renders this state; its screens do not
 * decide again.
 */

/** Where the grant stands (spec §2 Overlays). */
export type TGrantPhase =
  /** Not asked yet: the steps are shown. */
  | 'idle'
  /** 'Getting your biometric approval...': the passkey signs the grant. */
  | 'signing'
  /** 'Processing consent...': the server grants (and debits a saved account). */
  | 'processing'
  /** 'Completing consent...': granted; Consent Granted follows after GRANT_SUCCESS_SCREEN_MS. */
  | 'completing'
  /** The Consent Error modal: its message, 'Try Again'. */
  | 'failed';

export type TSignatureBlock = 'no_passkey' | 'not_on_device' | 'passkey_waiting';

/**
 * The Consent Error modal's words when no passkey on this device gave the approval: the payer's
 * passkeys are on another device (a code sign-in here), or the payer cancelled the prompt.
 */
export const APPROVAL_NOT_GIVEN_MESSAGE = 'No passkey of yours on this device gave its approval.';

/**
 * The Consent Error modal's way back to the consent where another try fails the same until a
 * date (a passkey that must wait): the payer closes it and comes back then.
 */
export const CONSENT_ERROR_CLOSE = 'Close';

/**
 * Whether the Consent Error modal offers 'Close': its 'Try Again' is withheld while the passkey
 * must wait, and without it the modal would have no control at all (only Escape or a reload).
 */
export const closesConsentError = (state: TConsentFlowState): boolean =>
  state.grant === 'failed' && state.signatureBlock === 'passkey_waiting';

export type TConsentFlowState = {
  steps: readonly TConsentStep[];
  current: TConsentStep | null;
  completed: readonly TConsentStep[];
  /**
   * The Future Payments step shows its schedule first, then the repayment accounts (spec §2);
   * 'linking' while the account-linking panel stands in their place, whose own controls are then
   * the only way on or back (no 'Confirm' or 'back' of the step under it).
   */
  futureView: 'schedule' | 'accounts' | 'linking';
  /** Repayment accounts, in the order chosen (account ids). */
  futureAccountIds: readonly string[];
  /** A saved account chosen to pay the immediate payment ('OneTap', spec §2). */
  immediateAccount: { accountId: string; accountNumber: string } | null;
  grant: TGrantPhase;
  /** The Consent Error modal's message. */
  error: string | null;
  /**
   * Why the grant could not be signed, when the biometric approval itself was missing
   * (docs/identity.md "When a passkey is trusted"): 'no_passkey', the payer has none, so the modal
   * offers to create one and then signs; 'not_on_device', no passkey on this device approved (the
   * payer's are elsewhere, or the prompt was cancelled), so the modal offers to create one here
   * beside 'Try Again'; 'passkey_waiting', the payer's passkey may not sign money until the time
   * the message names, so the modal says so and offers what needs no signature meanwhile (paying
   * the immediate payment by transfer or card).
   */
  signatureBlock: TSignatureBlock | null;
  /** Asks for no payment and no data (a form alone): answered by 'Consent' or 'Decline'. */
  answerOnly: boolean;
  /**
   * Asks only for its immediate payment, which grants it once paid (paymentGrantsConsent): paid
   * by transfer or card, it needs no signature of the payer's.
   */
  paymentGrants: boolean;
};

export type TConsentFlowAction =
  /** The open step's own button ('Confirm', 'Next Step'): it is done, the next opens. */
  | { type: 'step_confirmed' }
  /** A step header pressed: earlier steps reopen; later ones are disabled (spec §2). */
  | { type: 'step_opened'; step: TConsentStep }
  /** Future Payments: the schedule's 'Confirm' shows the repayment accounts; 'back' returns. */
  | { type: 'schedule_confirmed' }
  | { type: 'schedule_back' }
  /** The account-linking panel opened in place of the repayment accounts, or closed. */
  | { type: 'linking_toggled'; open: boolean }
  | { type: 'future_account_toggled'; accountId: string }
  /** A repayment account just linked in the flow is chosen for the payer (spec §4). */
  | { type: 'future_account_linked'; accountId: string }
  | { type: 'immediate_account_chosen'; accountId: string; accountNumber: string }
  | { type: 'immediate_account_cleared' }
  /**
   * The immediate payment was paid from an account the payer has linked and approved (spec §4):
   * it is the repayment account too, and the page goes on to the final step.
   */
  | { type: 'paid_from_approved_account'; accountId: string }
  | { type: 'grant_requested' }
  | { type: 'grant_signed' }
  | { type: 'grant_succeeded' }
  | { type: 'grant_failed'; message: string; signatureBlock?: TSignatureBlock }
  /** 'Try Again' on the Consent Error modal: back to the steps, choices kept. */
  | { type: 'grant_retry' }
  /**
   * A passkey created on the Consent Error modal, to sign the grant: `signsFrom` null when it
   * signs at once, else the time from which it may sign money (docs/identity.md "When a passkey
   * is trusted"). The page asks it to sign only when the grant asks nothing it may not sign yet.
   */
  | { type: 'passkey_created'; signsFrom: string | null; now: Date }
  /**
   * A passkey that must wait cannot sign the saved account's debit: the payer pays the immediate
   * payment by transfer or card instead, which needs no signature.
   */
  | { type: 'pay_without_signature' };

export function initialConsentFlow(consent: TConsent): TConsentFlowState {
  const steps = consentSteps(consent);
  // An immediate payment already paid (a reload after paying) is a step done.
  const paid = consent.payments.some((p) => p.type === 'immediate' && p.status === 'executed');
  const completed = paid ? (['immediate_payment'] as TConsentStep[]) : [];
  return {
    steps,
    current: steps.find((s) => !completed.includes(s)) ?? steps.at(-1) ?? null,
    completed,
    futureView: 'schedule',
    futureAccountIds: [],
    immediateAccount: null,
    grant: 'idle',
    error: null,
    signatureBlock: null,
    answerOnly: asksOnlyConsent(consent),
    paymentGrants: paymentGrantsConsent(consent),
  };
}

const nextOpen = (state: TConsentFlowState, completed: readonly TConsentStep[]) =>
  state.steps.find((s) => !completed.includes(s)) ?? state.steps.at(-1) ?? null;

/** Whether the grant is being signed or processed: the steps wait for it. */
const grantBusy = (state: TConsentFlowState) =>
  state.grant === 'signing' || state.grant === 'processing';

type TActionOf<T extends TConsentFlowAction['type']> = Extract<TConsentFlowAction, { type: T }>;

/** The consent page's steps, choices and grant, moved by one action to the handler of its group. */
export function consentFlowReducer(
  state: TConsentFlowState,
  action: TConsentFlowAction,
): TConsentFlowState {
  switch (action.type) {
    case 'step_confirmed':
    case 'step_opened':
    case 'paid_from_approved_account':
      return onSteps(state, action);
    case 'schedule_confirmed':
    case 'schedule_back':
    case 'linking_toggled':
      return onFutureView(state, action);
    case 'future_account_toggled':
    case 'future_account_linked':
    case 'immediate_account_chosen':
    case 'immediate_account_cleared':
      return onAccounts(state, action);
    case 'grant_requested':
    case 'grant_signed':
    case 'grant_succeeded':
    case 'grant_failed':
    case 'grant_retry':
      return onGrant(state, action);
    case 'passkey_created':
    case 'pay_without_signature':
      return onSignatureBlocked(state, action);
  }
}

/** Moving through the steps: one confirmed, one opened, or those a payment from an approved account answered. */
function onSteps(
  state: TConsentFlowState,
  action: TActionOf<'step_confirmed' | 'step_opened' | 'paid_from_approved_account'>,
): TConsentFlowState {
  const busy = grantBusy(state);
  switch (action.type) {
    case 'step_confirmed': {
      if (!state.current || busy) return state;
      if (state.current === 'future_payments' && state.futureAccountIds.length === 0) return state;
      const completed = state.completed.includes(state.current)
        ? state.completed
        : [...state.completed, state.current];
      return { ...state, completed, current: nextOpen(state, completed), futureView: 'schedule' };
    }
    case 'step_opened': {
      if (busy || !state.current) return state;
      const at = state.steps.indexOf(action.step);
      const open = state.steps.indexOf(state.current);
      // Earlier steps and the open one; and any step once every earlier one is done.
      const reachable =
        at !== -1 &&
        (at <= open || state.steps.slice(0, at).every((s) => state.completed.includes(s)));
      if (!reachable) return state;
      return { ...state, current: action.step, futureView: 'schedule' };
    }
    case 'paid_from_approved_account': {
      if (busy || state.grant === 'completing') return state;
      const hasFuture = state.steps.includes('future_payments');
      const futureAccountIds =
        hasFuture && state.futureAccountIds.length === 0
          ? [action.accountId]
          : state.futureAccountIds;
      const answered: TConsentStep[] = hasFuture
        ? ['future_payments', 'immediate_payment']
        : ['immediate_payment'];
      const completed = [
        ...state.completed,
        ...answered.filter((s) => state.steps.includes(s) && !state.completed.includes(s)),
      ];
      // What only the payer can answer (the data to share, the form) is still asked first.
      return {
        ...state,
        futureAccountIds,
        completed,
        current: nextOpen(state, completed),
        futureView: 'schedule',
      };
    }
  }
}

/** The future-payments step's views: its schedule, its accounts, the linking panel. */
function onFutureView(
  state: TConsentFlowState,
  action: TActionOf<'schedule_confirmed' | 'schedule_back' | 'linking_toggled'>,
): TConsentFlowState {
  switch (action.type) {
    case 'schedule_confirmed':
      return state.current === 'future_payments' ? { ...state, futureView: 'accounts' } : state;
    case 'schedule_back':
      return { ...state, futureView: 'schedule' };
    case 'linking_toggled':
      if (state.current !== 'future_payments' || state.futureView === 'schedule') return state;
      return { ...state, futureView: action.open ? 'linking' : 'accounts' };
  }
}

/** The accounts chosen: the repayment accounts, and the one the immediate payment is paid from. */
function onAccounts(
  state: TConsentFlowState,
  action: TActionOf<
    | 'future_account_toggled'
    | 'future_account_linked'
    | 'immediate_account_chosen'
    | 'immediate_account_cleared'
  >,
): TConsentFlowState {
  switch (action.type) {
    case 'future_account_toggled': {
      const chosen = state.futureAccountIds.includes(action.accountId);
      return {
        ...state,
        futureAccountIds: chosen
          ? state.futureAccountIds.filter((id) => id !== action.accountId)
          : [...state.futureAccountIds, action.accountId],
      };
    }
    case 'future_account_linked':
      return state.futureAccountIds.includes(action.accountId)
        ? state
        : { ...state, futureAccountIds: [...state.futureAccountIds, action.accountId] };
    case 'immediate_account_chosen':
      return {
        ...state,
        immediateAccount: { accountId: action.accountId, accountNumber: action.accountNumber },
      };
    case 'immediate_account_cleared':
      return { ...state, immediateAccount: null };
  }
}

/** The grant: asked for, signed, granted, refused, or tried again. */
function onGrant(
  state: TConsentFlowState,
  action: TActionOf<
    'grant_requested' | 'grant_signed' | 'grant_succeeded' | 'grant_failed' | 'grant_retry'
  >,
): TConsentFlowState {
  switch (action.type) {
    case 'grant_requested':
      return grantBusy(state)
        ? state
        : { ...state, grant: 'signing', error: null, signatureBlock: null };
    case 'grant_signed':
      return state.grant === 'signing' ? { ...state, grant: 'processing' } : state;
    case 'grant_succeeded':
      return { ...state, grant: 'completing', error: null };
    case 'grant_failed':
      return {
        ...state,
        grant: 'failed',
        error: action.message,
        signatureBlock: action.signatureBlock ?? null,
      };
    case 'grant_retry':
      return { ...state, grant: 'idle', error: null, signatureBlock: null };
  }
}

/** A refused grant's way on: a new passkey to sign with, or paying without a signature. */
function onSignatureBlocked(
  state: TConsentFlowState,
  action: TActionOf<'passkey_created' | 'pay_without_signature'>,
): TConsentFlowState {
  switch (action.type) {
    case 'passkey_created': {
      if (state.grant !== 'failed') return state;
      const waits =
        action.signsFrom !== null && Date.parse(action.signsFrom) > action.now.getTime();
      // A passkey that must wait is not asked for a signature the server would refuse: the
      // modal says until when (the server's own words) and what needs no signature meanwhile.
      if (waits && grantNeedsTrustedPasskey(state)) {
        return {
          ...state,
          error: formatErrorMessage('PASSKEY_NOT_YET_TRUSTED', {
            signsFrom: formatLagosDateTime(action.signsFrom as string),
          }),
          signatureBlock: 'passkey_waiting',
        };
      }
      return { ...state, grant: 'idle', error: null, signatureBlock: null };
    }
    case 'pay_without_signature': {
      if (state.grant !== 'failed' || !canPayWithoutSignature(state)) return state;
      return {
        ...state,
        grant: 'idle',
        error: null,
        signatureBlock: null,
        immediateAccount: null,
        current: 'immediate_payment',
      };
    }
  }
}

/**
 * Whether the grant must be signed by a trusted passkey (docs/identity.md "Actions and the proof
 * they need"; the server's grant decides the same): every grant of a signed-in payer, data sharing
 * included, except of a consent its immediate payment has already granted (paid here, by transfer
 * or card), which the server answers granted without a signature.
 */
export function grantNeedsTrustedPasskey(state: TConsentFlowState): boolean {
  return !(state.paymentGrants && state.completed.includes('immediate_payment'));
}

/**
 * Whether a payer whose passkey must wait can go on without a signature: the consent asks only for
 * its immediate payment, still to pay, and a saved account was chosen for it ('OneTap': a debit,
 * which only a trusted passkey signs). Paid by transfer or card instead, the payment grants the
 * consent by itself, and nothing is left to sign. A consent that asks for more (future payments,
 * data, a form, sign-in) needs the signature whatever pays its payment.
 */
export function canPayWithoutSignature(state: TConsentFlowState): boolean {
  return (
    state.signatureBlock === 'passkey_waiting' &&
    state.paymentGrants &&
    !state.completed.includes('immediate_payment') &&
    state.immediateAccount !== null
  );
}

/**
 * The payer's account an executed immediate payment came from, when it is linked and approved
 * (spec §4 'If the origin account is already linked and approved, the page jumps to the final
 * step'): an approved link on the account the payment's read names (`paidFrom`: the consent read
 * names none, docs/payments.md "Who reads a payment"). isOriginAccount matches the same bank and
 * number, or for a masked account the same bank and last four digits, which must then name one
 * account alone. Null when not paid, for a card, an unknown sender, or an account not linked.
 */
export function approvedOriginAccount(
  consent: TConsent,
  accounts: readonly TUserAccount[],
  paidFrom: TPayerBank | null,
): { accountId: string } | null {
  const paid = consent.payments.some((p) => p.type === 'immediate' && p.status === 'executed');
  const bank = paid ? paidFrom : null;
  if (!bank) return null;
  const found = accounts.filter(
    (a) =>
      isOriginAccount(bank, a) && (a.linkStatus === 'approved' || a.linkStatus === 'bank_approved'),
  );
  const account = found.length === 1 ? found[0] : undefined;
  return account?.bankId ? { accountId: account.bankId } : null;
}

/**
 * A consent that asks for no payment and no data (a form alone, spec §4): once its steps are
 * done the signed-in payer answers it with 'Consent' or 'Decline'.
 */
export function asksOnlyConsent(consent: TConsent): boolean {
  return consent.payments.length === 0 && dataSharingChips(consent.dataSharing).length === 0;
}

const grantUnderWay = (state: TConsentFlowState): boolean =>
  state.grant === 'signing' || state.grant === 'processing' || state.grant === 'completing';

/**
 * 'Decline' (spec §2, §4) on a consent asking for no payment and no data (a form alone): from
 * the start, so a payer can say no without filling anything in. Gone while the grant is under
 * way.
 */
export const showsDecline = (state: TConsentFlowState): boolean =>
  state.answerOnly && !grantUnderWay(state);

/**
 * 'Consent' beside 'Decline' (spec §4): on a consent asking for no payment and no data, once its
 * steps are done. The grant button of its last step gives way to it.
 */
export const showsConsentOrDecline = (state: TConsentFlowState): boolean =>
  showsDecline(state) && state.steps.every((s) => state.completed.includes(s));

/** The last step of the consent, where the grant is asked for. */
export const isFinalStep = (state: TConsentFlowState): boolean =>
  state.current !== null &&
  state.current === state.steps.at(-1) &&
  state.steps.slice(0, -1).every((s) => state.completed.includes(s));

export type TFlowButton = {
  /** 'Confirm' moves to the next step; 'Consent' / 'OneTap' grants (spec §2 Consent button). */
  action: 'confirm' | 'grant';
  button: TConsentButton | { variant: 'confirm'; label: 'Confirm' };
  disabled: boolean;
} | null;

/**
 * The button under the open step (spec §2, §4): on the repayment accounts 'Confirm' (or 'Consent'
 * on the final step), disabled with no account; on the Immediate Payment step 'OneTap ****1234'
 * once a saved account is chosen (paying by transfer or card grants by itself once paid); on Data
 * Sharing 'Confirm', then 'Consent' once it is confirmed when it is the last step. Hidden while
 * the grant is processing.
 */
export function consentFlowButton(state: TConsentFlowState): TFlowButton {
  if (!state.current || state.grant === 'signing' || state.grant === 'processing') return null;
  if (showsConsentOrDecline(state)) return null;
  if (state.grant === 'completing') return null;
  const final = isFinalStep(state);
  const grantButton = consentButton({
    processing: false,
    selectedAccountNumber:
      state.current === 'immediate_payment'
        ? (state.immediateAccount?.accountNumber ?? null)
        : null,
  });
  const disabled = isConsentButtonDisabled({
    step: state.current,
    selectedFutureAccountCount: state.futureAccountIds.length,
    immediatePaymentCompleted: state.completed.includes('immediate_payment'),
    immediateAccountSelected: state.immediateAccount !== null,
    transferMethodChosen: false,
  });
  switch (state.current) {
    case 'future_payments':
      if (state.futureView !== 'accounts') return null;
      return final
        ? { action: 'grant', button: grantButton ?? consentOnly, disabled }
        : { action: 'confirm', button: confirm, disabled };
    case 'immediate_payment':
      // Paid already, or a saved account chosen: the grant. Otherwise the methods are the way on.
      if (!state.immediateAccount && !state.completed.includes('immediate_payment')) return null;
      return { action: 'grant', button: grantButton ?? consentOnly, disabled };
    case 'data_sharing':
      // 'A Confirm button follows' the categories (spec §2); alone, the grant follows it.
      return final && state.completed.includes('data_sharing')
        ? { action: 'grant', button: consentOnly, disabled: false }
        : { action: 'confirm', button: confirm, disabled: false };
    case 'form':
      // The form's own 'Next Step' confirms it; on the last step the grant follows it.
      return final && state.completed.includes('form')
        ? { action: 'grant', button: consentOnly, disabled: false }
        : null;
  }
}

const confirm = { variant: 'confirm', label: 'Confirm' } as const;
const consentOnly = { variant: 'consent', label: 'Consent' } as const;

/**
 * The grant body (spec §7) for what the payer chose: the data types asked for, the repayment
 * accounts for every future payment, and the immediate payment's way (a saved account, or the
 * transfer or card that paid it).
 */
export function consentFlowGrantRequest(
  consent: TConsent,
  state: Pick<TConsentFlowState, 'futureAccountIds' | 'immediateAccount'>,
  paidBy: { type: 'transfer' | 'card'; paymentId: string } | null,
): TGrantRequest {
  const immediate = consent.payments.find((p) => p.type === 'immediate');
  const hasFuture = consent.payments.some((p) => p.type === 'future');
  const dataTypes = requestedDataCategories(consent.dataSharing);
  const accounts = [...state.futureAccountIds];
  return {
    originalRequestId: null,
    consentData: { consentId: consent.consentId },
    userAuthenticated: true,
    attestDiscoveryId: consent.attestDiscoveryId,
    ...(dataTypes.length > 0 ? { dataSharing: { granted: true, dataTypes } } : {}),
    ...(hasFuture
      ? {
          futurePayments: {
            granted: true,
            selectedAccounts: accounts,
            paymentMethods: accounts.map((accountId) => ({ type: 'account' as const, accountId })),
          },
        }
      : {}),
    ...(immediate
      ? {
          immediatePayments: {
            granted: true,
            selectedAccounts: state.immediateAccount ? [state.immediateAccount.accountId] : [],
            paymentMethods: state.immediateAccount
              ? [{ type: 'account' as const, accountId: state.immediateAccount.accountId }]
              : paidBy
                ? [{ type: paidBy.type, paymentId: paidBy.paymentId }]
                : [],
          },
        }
      : {}),
  };
}
