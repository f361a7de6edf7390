import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accountsToList,
  LINKING_PANEL_INITIAL,
  LINKING_PANEL_TIMINGS,
  linkingPanelReducer,
  type TLinkingAccount,
  type TLinkingPanelAction,
  type TLinkingPanelState,
} from './linking-panel';
import { ERROR_CATALOGUE } from './errors';
import type { TAccountLink } from './schemas/account-link';
import type { TBankValidationResult } from './schemas/user-account';

const bankAccount: TLinkingAccount = {
  accountNumber: '0123456789',
  accountName: 'Ada Obi',
  bankName: 'Access Bank',
  institutionCode: '000014',
  integrations: {
    transactionService: { possible: true, authorized: false, approved: false, linked: false },
  },
};
const cardAccount: TLinkingAccount = {
  ...bankAccount,
  integrations: {
    card: { possible: true, active: false, linked: false, obfuscatedCard: null, token: null },
  },
};
const link = (over: Partial<TAccountLink> = {}): TAccountLink => ({
  id: 'lnk_1',
  payInDetails: null,
  authParams: [],
  mandateType: 'otp',
  remitaTransRef: null,
  requestId: null,
  remitaLogoUrl: null,
  formUrl: null,
  ...over,
});
const payInLink = link({
  payInDetails: {
    amount: 5_000,
    accountNumber: '9000000001',
    beneficiary: 'Oya Collections',
    bankName: 'Rubies MFB',
    paymentId: 'pay_link',
    sourceAccount: '0123456789',
  },
});
const authLink = link({
  remitaTransRef: 'rrr_1',
  authParams: [
    {
      param1: 'OTP',
      param2: 'CARD',
      label1: 'OTP',
      label2: 'Card',
      description1: null,
      description2: null,
    },
  ],
});

const open: TLinkingPanelAction = { type: 'open' };
const chooseBank: TLinkingPanelAction = {
  type: 'account_chosen',
  account: bankAccount,
  source: 'list',
};
const chooseBankManually: TLinkingPanelAction = {
  ...chooseBank,
  source: 'manual',
};
const chooseCard: TLinkingPanelAction = {
  type: 'account_chosen',
  account: cardAccount,
  source: 'list',
};
const noLink: TLinkingPanelAction = { type: 'link_resolved', accountLink: null };
const paperLinked: TLinkingPanelAction = {
  type: 'link_resolved',
  accountLink: link({ mandateType: 'paper', formUrl: 'https://x/mandates/alk_1' }),
};
const submitCard: TLinkingPanelAction = { type: 'card_submitted' };
const charged = (over: object): TLinkingPanelAction => ({
  type: 'card_response',
  response: { success: true, paymentId: 'pay_card', amount: 100, ...over },
});
const needs3ds = charged({ requires3DS: true, challengeUrl: 'https://bank.example/3ds' });
const needsOtp = charged({
  requiresOTP: true,
  displayMessage: 'Enter the OTP sent to [[PhoneNumber]]',
});
const bvnForm = (action: object): TLinkingPanelAction =>
  ({ type: 'bvn_form', action }) as TLinkingPanelAction;
const sendBvnCode = bvnForm({ type: 'code_requested', bvn: '22334455667' });
const bvnOpened = bvnForm({
  type: 'verification_opened',
  sender: 'nibss',
  methods: [
    { id: 'phone', hint: 'Sms with a verification code will be sent to phone 0818***6496' },
  ],
});
const bvnMethodChosen = bvnForm({ type: 'method_chosen', method: 'phone' });
const bvnCodeSent = bvnForm({ type: 'code_sent' });
const verifyBvn = bvnForm({ type: 'verify_requested', code: '123456' });
const bvnVerified = bvnForm({ type: 'verified', last4: '5667' });
const notVerified: TLinkingPanelAction = {
  type: 'link_failed',
  code: 'BVN_NOT_VERIFIED',
  message: ERROR_CATALOGUE.BVN_NOT_VERIFIED.message,
};
const cardEvent = (event: object): TLinkingPanelAction =>
  ({
    type: 'card_linking_event',
    event: { paymentId: 'pay_card', ...event },
  }) as TLinkingPanelAction;

const ROUTES = {
  closed: [],
  select: [open],
  creatingLink: [open, chooseBank],
  creatingCardLink: [open, chooseCard],
  creatingForcedCardLink: [{ type: 'open', forceCardFlow: true }, chooseBank],
  payment: [open, chooseBank, { type: 'link_resolved', accountLink: payInLink }],
  paymentWithoutLinkId: [
    open,
    chooseBank,
    { type: 'link_resolved', accountLink: { ...payInLink, id: '' } },
  ],
  confirming: [
    open,
    chooseBank,
    { type: 'link_resolved', accountLink: payInLink },
    { type: 'transfer_confirm_requested' },
  ],
  cardForm: [open, chooseCard, noLink],
  cardFormNoAccountNumber: [
    open,
    { type: 'account_chosen', account: { ...cardAccount, accountNumber: null }, source: 'list' },
    noLink,
  ],
  cardBusy: [open, chooseCard, noLink, submitCard],
  cardError: [open, chooseCard, noLink, submitCard, { type: 'card_failed' }],
  threeDs: [open, chooseCard, noLink, submitCard, needs3ds],
  otp: [open, chooseCard, noLink, submitCard, needsOtp],
  otpWithoutPaymentId: [
    open,
    chooseCard,
    noLink,
    submitCard,
    { type: 'card_response', response: { success: true, requiresOTP: true } },
  ],
  otpBusy: [open, chooseCard, noLink, submitCard, needsOtp, { type: 'otp_submitted' }],
  verification: [open, chooseBank, { type: 'link_resolved', accountLink: authLink }],
  verificationWithoutRef: [
    open,
    chooseBank,
    { type: 'link_resolved', accountLink: { ...authLink, remitaTransRef: null } },
  ],
  verificationBusy: [
    open,
    chooseBank,
    { type: 'link_resolved', accountLink: authLink },
    { type: 'verification_submitted' },
  ],
  awaiting3ds: [open, chooseCard, noLink, submitCard, needs3ds, { type: 'three_ds_started' }],
  processingCard: [
    open,
    chooseCard,
    noLink,
    submitCard,
    needs3ds,
    { type: 'three_ds_started' },
    cardEvent({ event: 'card_linking_progress' }),
  ],
  successReset: [open, chooseBank, noLink],
  successPaper: [open, chooseBank, paperLinked],
  successClose: [open, chooseCard, noLink, submitCard, charged({})],
  bvnOnOpen: [open, { type: 'bvn_required' }],
  bvnVerifyingOnManualEntry: [
    open,
    { type: 'manual_entry_opened' },
    { type: 'bvn_required' },
    sendBvnCode,
    bvnOpened,
    bvnMethodChosen,
    bvnCodeSent,
    verifyBvn,
  ],
  bvnSendingOnOpen: [open, { type: 'bvn_required' }, sendBvnCode, bvnOpened, bvnMethodChosen],
  bvnCodeOnOpen: [
    open,
    { type: 'bvn_required' },
    sendBvnCode,
    bvnOpened,
    bvnMethodChosen,
    bvnCodeSent,
  ],
  bvnVerifyingOnOpen: [
    open,
    { type: 'bvn_required' },
    sendBvnCode,
    bvnOpened,
    bvnMethodChosen,
    bvnCodeSent,
    verifyBvn,
  ],
  bvnForAccount: [open, chooseBankManually, notVerified],
  bvnVerifyingForAccount: [
    open,
    chooseBankManually,
    notVerified,
    sendBvnCode,
    bvnOpened,
    bvnMethodChosen,
    bvnCodeSent,
    verifyBvn,
  ],
  bvnVerifyingForCard: [
    open,
    chooseCard,
    noLink,
    submitCard,
    { type: 'card_failed', code: 'BVN_NOT_VERIFIED' },
    sendBvnCode,
    bvnOpened,
    bvnMethodChosen,
    bvnCodeSent,
    verifyBvn,
  ],
  errorFromList: [open, chooseBank, { type: 'link_failed', message: 'Bank unavailable' }],
  errorFromManual: [open, chooseBankManually, { type: 'link_failed' }],
} satisfies Record<string, TLinkingPanelAction[]>;
type TRoute = keyof typeof ROUTES;

const stateAt = (route: TRoute): TLinkingPanelState =>
  (ROUTES[route] as TLinkingPanelAction[]).reduce(linkingPanelReducer, LINKING_PANEL_INITIAL);

const TRANSITIONS: Array<[string, TRoute, TLinkingPanelAction, Record<string, unknown>]> = [
  // Opening, choosing, closing
  ['opens on select', 'closed', open, { step: 'select', manualEntry: false, forceCardFlow: false }],
  [
    'opens a forced card flow',
    'closed',
    { type: 'open', forceCardFlow: true },
    { step: 'select', forceCardFlow: true },
  ],
  [
    'opens manual entry',
    'select',
    { type: 'manual_entry_opened' },
    { step: 'select', manualEntry: true },
  ],
  ['closes from any step, resetting everything', 'payment', { type: 'close' }, { step: 'closed' }],
  // The OTP and 3-D Secure views' one way back is the panel's cancel: one way back per step.
  ['closes from the card OTP view', 'otp', { type: 'close' }, { step: 'closed' }],
  ['closes from the 3-D Secure view', 'threeDs', { type: 'close' }, { step: 'closed' }],
  [
    'goes from select to linking',
    'select',
    chooseBank,
    { step: 'linking', phase: 'creating_link', progress: 0 },
  ],
  [
    'marks a card-capable account for the card flow',
    'select',
    chooseCard,
    { step: 'linking', context: { cardFlow: true } },
  ],
  [
    'keeps a bank-only account off the card flow',
    'select',
    chooseBank,
    { context: { cardFlow: false, source: 'list' } },
  ],
  // The BVN step (docs/identity.md "The BVN"): asked once, then the panel carries on.
  [
    'asks for the BVN when the panel opens for a payer with none',
    'select',
    { type: 'bvn_required' },
    { step: 'bvn', form: { phase: 'enter_bvn' }, resume: { to: 'select', manualEntry: false } },
  ],
  [
    'sends the code from the BVN step',
    'bvnOnOpen',
    sendBvnCode,
    { step: 'bvn', form: { phase: 'enter_bvn', busy: true } },
  ],
  [
    'asks for the code once it was asked for',
    'bvnSendingOnOpen',
    bvnCodeSent,
    { step: 'bvn', form: { phase: 'enter_code', busy: false } },
  ],
  [
    'shows the tries left after a wrong code',
    'bvnVerifyingOnOpen',
    bvnForm({
      type: 'verify_failed',
      code: 'PHONE_CODE_INCORRECT',
      message: 'That code is not correct. 4 tries left.',
    }),
    {
      step: 'bvn',
      form: { phase: 'enter_code', error: 'That code is not correct. 4 tries left.' },
    },
  ],
  [
    'carries on at select once verified',
    'bvnVerifyingOnOpen',
    bvnVerified,
    { step: 'select', manualEntry: false },
  ],
  [
    'carries on at manual entry once verified, when that is where the payer was',
    'bvnVerifyingOnManualEntry',
    bvnVerified,
    { step: 'select', manualEntry: true },
  ],
  [
    'asks for the BVN when the link call answers BVN_NOT_VERIFIED',
    'creatingLink',
    notVerified,
    { step: 'bvn', resume: { to: 'account', context: { account: bankAccount } } },
  ],
  [
    'links the account the payer was linking once verified',
    'bvnVerifyingForAccount',
    bvnVerified,
    {
      step: 'linking',
      phase: 'creating_link',
      context: { account: bankAccount, source: 'manual' },
    },
  ],
  [
    'asks for the BVN when the card call answers BVN_NOT_VERIFIED',
    'cardBusy',
    { type: 'card_failed', code: 'BVN_NOT_VERIFIED' },
    { step: 'bvn', resume: { to: 'account', context: { cardFlow: true } } },
  ],
  [
    'returns to the card once verified',
    'bvnVerifyingForCard',
    bvnVerified,
    { step: 'linking', phase: 'creating_link', context: { cardFlow: true } },
  ],
  [
    'shows ACCOUNT_NOT_YOURS on the error step',
    'creatingLink',
    {
      type: 'link_failed',
      code: 'ACCOUNT_NOT_YOURS',
      message: ERROR_CATALOGUE.ACCOUNT_NOT_YOURS.message,
    },
    { step: 'error', message: 'This account is not registered to your BVN.' },
  ],
  ['closes from the BVN step', 'bvnCodeOnOpen', { type: 'close' }, { step: 'closed' }],
  [
    'goes back from the BVN step asked on opening: closes',
    'bvnOnOpen',
    { type: 'back' },
    { step: 'closed' },
  ],
  [
    'goes back from the BVN step asked for an account: to manual entry',
    'bvnForAccount',
    { type: 'back' },
    { step: 'select', manualEntry: true },
  ],
  // After the account link (spec §4 "select to linking. Then:")
  [
    'sends a card-capable account to card_entry with zero amount',
    'creatingCardLink',
    noLink,
    { step: 'card_entry', view: 'card_form', amount: 0, paymentId: null },
  ],
  [
    'sends a forced card flow to card_entry even for a bank-only account',
    'creatingForcedCardLink',
    { type: 'link_resolved', accountLink: payInLink },
    { step: 'card_entry', view: 'card_form', amount: 0 },
  ],
  [
    'sends an account with pay-in details to payment',
    'creatingLink',
    { type: 'link_resolved', accountLink: payInLink },
    { step: 'payment', notice: null },
  ],
  [
    'sends an account with authParams to the verification form',
    'creatingLink',
    { type: 'link_resolved', accountLink: authLink },
    { step: 'card_entry', view: 'verification' },
  ],
  [
    'ends a paper mandate in success with its form, kept until the payer closes it',
    'creatingLink',
    paperLinked,
    {
      step: 'success',
      followUp: null,
      mandateForm: { type: 'paper', url: 'https://x/mandates/alk_1' },
    },
  ],
  [
    'ends an account link with no details in success, reset after 2 s',
    'creatingLink',
    noLink,
    { step: 'success', followUp: { action: 'reset', delayMs: 2_000 }, mandateForm: null },
  ],
  [
    'shows an account-link error',
    'creatingLink',
    { type: 'link_failed', message: 'Bank unavailable' },
    { step: 'error', message: 'Bank unavailable' },
  ],
  [
    'falls back to Failed to create account link',
    'creatingLink',
    { type: 'link_failed' },
    { step: 'error', message: 'Failed to create account link' },
  ],
  // payment → confirming → success
  [
    'confirms the transfer',
    'payment',
    { type: 'transfer_confirm_requested' },
    { step: 'confirming' },
  ],
  [
    'needs an account link id to confirm',
    'paymentWithoutLinkId',
    { type: 'transfer_confirm_requested' },
    { step: 'payment', notice: 'No account link ID found' },
  ],
  [
    'succeeds when confirm succeeds',
    'confirming',
    { type: 'confirm_result', success: true, status: 'completed', message: 'Confirmed' },
    { step: 'success', followUp: { action: 'close', delayMs: 1_500 } },
  ],
  [
    'returns to payment when the status is pending',
    'confirming',
    { type: 'confirm_result', success: false, status: 'pending', message: 'Still waiting' },
    { step: 'payment', notice: 'Still waiting' },
  ],
  [
    'returns to payment with the spec message when pending says nothing',
    'confirming',
    { type: 'confirm_result', success: false, status: 'pending' },
    { step: 'payment', notice: 'Payment not yet confirmed. Please wait and try again.' },
  ],
  [
    'returns to payment when the message says not yet confirmed',
    'confirming',
    {
      type: 'confirm_result',
      success: false,
      status: 'failed',
      message: 'Payment not yet confirmed. Please wait and try again.',
    },
    { step: 'payment' },
  ],
  [
    'fails on any other confirm failure',
    'confirming',
    { type: 'confirm_result', success: false, status: 'failed', message: 'Amount mismatch' },
    { step: 'error', message: 'Amount mismatch' },
  ],
  [
    'falls back to Failed to confirm payment',
    'confirming',
    { type: 'confirm_result', success: false, status: 'failed' },
    { step: 'error', message: 'Failed to confirm payment' },
  ],
  [
    'succeeds on a completed account-link progress event',
    'payment',
    { type: 'link_progress', status: 'completed' },
    { step: 'success' },
  ],
  [
    'fails on a failed account-link progress event',
    'confirming',
    { type: 'link_progress', status: 'failed', message: 'Mandate rejected' },
    { step: 'error', message: 'Mandate rejected' },
  ],
  // card_entry
  ['submits the card once', 'cardForm', submitCard, { step: 'card_entry', busy: true }],
  [
    'needs the account details for card linking',
    'cardFormNoAccountNumber',
    submitCard,
    { step: 'card_entry', busy: false, error: 'No account details found for card linking' },
  ],
  [
    'shows the 3DS screen when the card call requires it',
    'cardBusy',
    needs3ds,
    {
      step: 'card_entry',
      view: 'three_ds',
      challengeUrl: 'https://bank.example/3ds',
      paymentId: 'pay_card',
    },
  ],
  [
    'shows the OTP screen with retry after 15 s',
    'cardBusy',
    needsOtp,
    {
      step: 'card_entry',
      view: 'otp',
      otpRetryAfterMs: 15_000,
      displayMessage: 'Enter the OTP sent to [[PhoneNumber]]',
    },
  ],
  [
    'treats a card response without OTP or 3DS as success',
    'cardBusy',
    charged({ requiresOTP: false }),
    { step: 'success', followUp: { action: 'close', delayMs: 1_500 } },
  ],
  [
    'shows a refused card call in the error box',
    'cardBusy',
    { type: 'card_response', response: { success: false, message: 'Do not honour' } },
    { step: 'card_entry', view: 'card_form', busy: false, error: 'Do not honour' },
  ],
  [
    'falls back to Failed to link card',
    'cardBusy',
    { type: 'card_failed' },
    { step: 'card_entry', error: 'Failed to link card' },
  ],
  [
    'clears the error on Try Again',
    'cardError',
    { type: 'card_retry' },
    { step: 'card_entry', error: null },
  ],
  [
    'returns from the OTP screen to the card form on Try Again',
    'otp',
    { type: 'card_details_requested' },
    { step: 'card_entry', view: 'card_form', paymentId: null, otpRetryAfterMs: null, busy: false },
  ],
  [
    'goes to linking at 25% on 3DS start',
    'threeDs',
    { type: 'three_ds_started' },
    {
      step: 'linking',
      phase: 'awaiting_3ds',
      progress: 25,
      progressText: 'Awaiting 3D Secure authentication...',
    },
  ],
  [
    'succeeds at 100% on card_linking_success and closes',
    'awaiting3ds',
    cardEvent({ event: 'card_linking_success' }),
    {
      step: 'success',
      progress: 100,
      progressText: 'Card linking completed!',
      followUp: { action: 'close', delayMs: 1_500 },
    },
  ],
  [
    'fails on card_linking_error',
    'awaiting3ds',
    cardEvent({ event: 'card_linking_error', error: '3DS authentication failed' }),
    { step: 'error', message: '3DS authentication failed' },
  ],
  [
    'moves to linking at 50% on the first card_linking_progress',
    'awaiting3ds',
    cardEvent({ event: 'card_linking_progress' }),
    {
      step: 'linking',
      phase: 'processing_card',
      progress: 50,
      progressText: 'Processing card linking...',
    },
  ],
  [
    'moves to 75% on a later card_linking_progress',
    'processingCard',
    cardEvent({ event: 'card_linking_progress' }),
    { step: 'linking', progress: 75 },
  ],
  [
    'moves to linking on card_linking_progress from card_entry',
    'threeDs',
    cardEvent({ event: 'card_linking_progress' }),
    { step: 'linking', progress: 50 },
  ],
  [
    'returns to card_entry on card_linking_failed',
    'awaiting3ds',
    cardEvent({ event: 'card_linking_failed', error: 'Card linking failed' }),
    { step: 'card_entry', view: 'card_form', error: 'Card linking failed' },
  ],
  ['submits the OTP', 'otp', { type: 'otp_submitted' }, { step: 'card_entry', busy: true }],
  [
    'needs a payment id for the OTP',
    'otpWithoutPaymentId',
    { type: 'otp_submitted' },
    { step: 'card_entry', busy: false, error: 'No payment ID found for OTP submission' },
  ],
  [
    'succeeds on OTP success, reset after 2 s',
    'otpBusy',
    { type: 'otp_result', success: true },
    { step: 'success', followUp: { action: 'reset', delayMs: 2_000 } },
  ],
  [
    'returns to card_entry on OTP failure',
    'otpBusy',
    { type: 'otp_result', success: false },
    { step: 'card_entry', view: 'card_form', error: 'OTP verification failed' },
  ],
  [
    'resubmits the card from the OTP screen (retry option)',
    'otp',
    submitCard,
    { step: 'card_entry', view: 'otp', busy: true },
  ],
  // Verification form
  [
    'submits the verification form',
    'verification',
    { type: 'verification_submitted' },
    { busy: true },
  ],
  [
    'needs a Remita reference for the verification form',
    'verificationWithoutRef',
    { type: 'verification_submitted' },
    { busy: false, error: 'No Remita transaction reference found for auth submission' },
  ],
  [
    'succeeds when verification succeeds',
    'verificationBusy',
    { type: 'verification_result', success: true },
    { step: 'success' },
  ],
  [
    'falls back to Failed to verify account',
    'verificationBusy',
    { type: 'verification_result', success: false },
    { step: 'card_entry', view: 'verification', error: 'Failed to verify account' },
  ],
  [
    'keeps the form after a wrong answer that leaves tries',
    'verificationBusy',
    {
      type: 'verification_result',
      success: false,
      code: 'AUTH_PARAMS_INCORRECT',
      message: 'Failed to verify account: the details do not match your bank. 4 tries left.',
    },
    {
      step: 'card_entry',
      view: 'verification',
      busy: false,
      error: 'Failed to verify account: the details do not match your bank. 4 tries left.',
    },
  ],
  [
    'goes to the error step when too many wrong answers cancelled the link',
    'verificationBusy',
    {
      type: 'verification_result',
      success: false,
      code: 'AUTH_PARAMS_LOCKED',
      message: 'Too many wrong tries. This account link was cancelled; please start again.',
    },
    {
      step: 'error',
      message: 'Too many wrong tries. This account link was cancelled; please start again.',
    },
  ],
  [
    'goes to the error step when the link expired meanwhile, in the catalogue words',
    'verificationBusy',
    { type: 'verification_result', success: false, code: 'ACCOUNT_LINK_EXPIRED' },
    { step: 'error', message: ERROR_CATALOGUE.ACCOUNT_LINK_EXPIRED.message },
  ],
  [
    'goes to the error step when the link was cancelled meanwhile',
    'verificationBusy',
    { type: 'verification_result', success: false, code: 'ACCOUNT_LINK_CANCELLED' },
    { step: 'error', message: ERROR_CATALOGUE.ACCOUNT_LINK_CANCELLED.message },
  ],
  [
    'returns to select from the verification form',
    'verification',
    { type: 'back' },
    { step: 'select', manualEntry: false },
  ],
  // Back, and after success
  [
    'returns a manual entry from error to select',
    'errorFromManual',
    { type: 'back' },
    { step: 'select', manualEntry: true },
  ],
  [
    'closes the panel on back from an error of a listed account',
    'errorFromList',
    { type: 'back' },
    { step: 'closed' },
  ],
  [
    'resets to select after a reset success',
    'successReset',
    { type: 'success_delay_elapsed' },
    { step: 'select' },
  ],
  [
    "keeps a paper mandate's success when a success delay comes",
    'successPaper',
    { type: 'success_delay_elapsed' },
    { step: 'success', mandateForm: { type: 'paper', url: 'https://x/mandates/alk_1' } },
  ],
  [
    "closes a paper mandate's success on close",
    'successPaper',
    { type: 'close' },
    { step: 'closed' },
  ],
  [
    'closes after a close success',
    'successClose',
    { type: 'success_delay_elapsed' },
    { step: 'closed' },
  ],
];

describe('linkingPanelReducer transitions', () => {
  it.each(TRANSITIONS)('%s', (_, route, action, expected) => {
    expect(linkingPanelReducer(stateAt(route), action)).toMatchObject(expected);
  });

  const REFUSED: Array<[string, TRoute, TLinkingPanelAction]> = [
    ['a second open', 'select', open],
    ['a second account while linking (one attempt at once)', 'creatingLink', chooseCard],
    ['a second card submit while busy', 'cardBusy', submitCard],
    ['a second OTP submit while busy', 'otpBusy', { type: 'otp_submitted' }],
    ['a card response nobody asked for', 'cardForm', needs3ds],
    [
      'a card event about another payment',
      'awaiting3ds',
      {
        type: 'card_linking_event',
        event: { event: 'card_linking_success', paymentId: 'pay_other' },
      },
    ],
    [
      'a card success of another attempt on the card form (an earlier link)',
      'cardForm',
      cardEvent({ event: 'card_linking_success' }),
    ],
    [
      'a card progress of another attempt on the card form',
      'cardForm',
      cardEvent({ event: 'card_linking_progress' }),
    ],
    [
      'a card failure of another attempt on the card form',
      'cardForm',
      cardEvent({ event: 'card_linking_failed', error: 'Card linking failed' }),
    ],
    [
      'a card event while the card call has not answered which attempt is its own',
      'cardBusy',
      cardEvent({ event: 'card_linking_success' }),
    ],
    [
      'a card event about another payment on the OTP screen',
      'otp',
      {
        type: 'card_linking_event',
        event: { event: 'card_linking_error', paymentId: 'pay_other', error: 'x' },
      },
    ],
    [
      'a card event while the account link is created',
      'creatingLink',
      cardEvent({ event: 'card_linking_success' }),
    ],
    ['a late account link after 3DS started', 'awaiting3ds', noLink],
    ['a confirm result outside confirming', 'payment', { type: 'confirm_result', success: true }],
    ['back on the payment step', 'payment', { type: 'back' }],
    ['success delay outside success', 'payment', { type: 'success_delay_elapsed' }],
    ['Try Again with no error', 'cardForm', { type: 'card_retry' }],
    ['card details asked for on the card form', 'cardForm', { type: 'card_details_requested' }],
    [
      'card details asked for while the OTP is checked',
      'otpBusy',
      { type: 'card_details_requested' },
    ],
    ['3DS start without a challenge', 'cardForm', { type: 'three_ds_started' }],
    ['a second BVN request once on the BVN step', 'bvnOnOpen', { type: 'bvn_required' }],
    ['a BVN request while linking', 'creatingLink', { type: 'bvn_required' }],
    ['a BVN form action outside the BVN step', 'select', sendBvnCode],
    ['a second Verify while verifying', 'bvnVerifyingOnOpen', verifyBvn],
  ];
  it.each(REFUSED)('ignores %s', (_, route, action) => {
    const before = stateAt(route);
    expect(linkingPanelReducer(before, action)).toBe(before);
  });

  it('exposes its timings as data', () => {
    expect(LINKING_PANEL_TIMINGS).toEqual({
      resetAfterSuccessMs: 2_000,
      closeAfterSuccessMs: 1_500,
      otpRetryAfterMs: 15_000,
      validatingCancelAfterMs: 3_000,
    });
  });
});

const ACTION_POOL: TLinkingPanelAction[] = [
  open,
  { type: 'open', forceCardFlow: true },
  { type: 'close' },
  { type: 'manual_entry_opened' },
  chooseBank,
  chooseBankManually,
  chooseCard,
  noLink,
  { type: 'link_resolved', accountLink: payInLink },
  { type: 'link_resolved', accountLink: authLink },
  { type: 'link_failed' },
  { type: 'transfer_confirm_requested' },
  { type: 'confirm_result', success: true, status: 'completed' },
  { type: 'confirm_result', success: false, status: 'pending' },
  { type: 'confirm_result', success: false, status: 'failed' },
  { type: 'link_progress', status: 'completed' },
  { type: 'link_progress', status: 'failed' },
  submitCard,
  needs3ds,
  needsOtp,
  charged({}),
  { type: 'card_failed' },
  { type: 'card_retry' },
  { type: 'card_details_requested' },
  { type: 'three_ds_started' },
  cardEvent({ event: 'card_linking_success' }),
  cardEvent({ event: 'card_linking_error', error: 'x' }),
  cardEvent({ event: 'card_linking_progress' }),
  cardEvent({ event: 'card_linking_failed', error: 'x' }),
  { type: 'otp_submitted' },
  { type: 'otp_result', success: true },
  { type: 'otp_result', success: false },
  { type: 'verification_submitted' },
  { type: 'verification_result', success: true },
  { type: 'verification_result', success: false },
  { type: 'verification_result', success: false, code: 'AUTH_PARAMS_LOCKED' },
  { type: 'back' },
  { type: 'success_delay_elapsed' },
  { type: 'bvn_required' },
  notVerified,
  { type: 'card_failed', code: 'BVN_NOT_VERIFIED' },
  sendBvnCode,
  bvnOpened,
  bvnMethodChosen,
  bvnCodeSent,
  verifyBvn,
  bvnVerified,
  bvnForm({ type: 'verify_failed' }),
  bvnForm({ type: 'change_bvn' }),
];

describe('linkingPanelReducer properties', () => {
  it('keeps progress within 0–100 for any action sequence', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ACTION_POOL), { maxLength: 80 }), (actions) => {
        let state = LINKING_PANEL_INITIAL;
        for (const action of actions) {
          state = linkingPanelReducer(state, action);
          if ('progress' in state) {
            expect(state.progress).toBeGreaterThanOrEqual(0);
            expect(state.progress).toBeLessThanOrEqual(100);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('leaves success and error only by their own ways out', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ACTION_POOL), { maxLength: 80 }), (actions) => {
        let state = LINKING_PANEL_INITIAL;
        for (const action of actions) {
          const next = linkingPanelReducer(state, action);
          if (state.step === 'success' && next.step !== 'success') {
            expect(['success_delay_elapsed', 'close']).toContain(action.type);
          }
          if (state.step === 'error' && next.step !== 'error') {
            expect(['back', 'close']).toContain(action.type);
          }
          if (next.step === 'success' && state.step !== 'success') {
            expect(['linking', 'confirming', 'card_entry', 'payment']).toContain(state.step);
          }
          state = next;
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('accountsToList', () => {
  const found = (over: Partial<TBankValidationResult>): TBankValidationResult => ({
    accountNumber: '0123456789',
    accountName: 'Ada Obi',
    institutionCode: '000014',
    bankName: 'Access Bank',
    logo: null,
    nameEnquiryId: null,
    isOyaUser: false,
    oyaUser: null,
    integrations: bankAccount.integrations,
    ownership: 'yours',
    ...over,
  });
  const own = { ...bankAccount, bankId: 'bank_1' };

  it('lists the accounts under the BVN after the payer’s own, those already added as they are', () => {
    const other = found({ accountNumber: '0987654321' });
    expect(accountsToList([own], [found({}), other])).toEqual([own, other]);
  });

  it('leaves out an account the bank does not hold under the payer’s BVN', () => {
    expect(accountsToList([], [found({ ownership: 'not_yours' })])).toEqual([]);
  });

  it('lists an account whose holder the bank did not name: the provider checks it on linking', () => {
    const unnamed = found({ ownership: 'to_check' });
    expect(accountsToList([], [unnamed])).toEqual([unnamed]);
  });
});
