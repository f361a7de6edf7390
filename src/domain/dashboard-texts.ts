import { ROLE_LABELS, type TStaffRole } from './dashboard-roles';
import { countNoun } from './plural';
import { formatNaira } from './money';
import { formatLagosDateTime } from './payment-date';

/*
 * What the merchant dashboard says (docs/dashboard.md). The spec has no dashboard: these are our
 * own words, plain and short.
 */
export const DASHBOARD_TEXTS = {
  loading: 'Loading…',
  working: 'Working…',
  signInTitle: 'Sign in to the dashboard',
  signInLead: 'Use the passkey you made when you joined your team.',
  signInButton: 'Sign in with a passkey',
  lostPasskey: 'Lost your passkey?',
  recoveryTitle: 'Make a new passkey',
  phoneLabel: 'Phone number',
  codeLabel: '6-digit code',
  nameLabel: 'Your full name',
  nameHint: 'Only if you have never used Oya Money with this number.',
  sendCode: 'Send code',
  verifyAndMakePasskey: 'Verify and make a passkey',
  joinTitle: 'Join your team',
  joinButton: 'Join and make a passkey',
  forNumber: (masked: string) => `This invitation is for ${masked}.`,
  signOut: 'Sign out',
  notForYourRole: (role: string, merchant: string) =>
    `Your role (${role}) does not allow this page. An owner of ${merchant} can change your role on the Team page.`,
  nav: {
    payments: 'Payments',
    consents: 'Consents',
    developers: 'Developers',
    team: 'Team',
    sandbox: 'Sandbox tools',
    terminals: 'Terminals',
    routes: 'Routes',
  },
  paymentsTitle: 'Payments',
  searchLabel: 'Reference, payment id, or last digits of the account or card',
  statusLabel: 'Status',
  anyStatus: 'Any status',
  amountLabel: 'Amount in naira',
  fromLabel: 'From',
  toLabel: 'To',
  search: 'Search',
  moreFilters: (set: number) => (set === 0 ? 'Filters' : `Filters (${set} set)`),
  noPayments: 'No payments match.',
  morePayments: 'More payments',
  paymentTitle: 'Payment',
  timelineTitle: 'Timeline',
  refundsTitle: 'Refunds',
  refundTitle: 'Refund',
  refundAmountLabel: 'Amount to refund in naira',
  refundReasonLabel: 'Reason',
  refundButton: 'Refund',
  refundable: (amount: string) => `${amount} can still be refunded.`,
  refundLimit: (amount: string) => `Your limit is ${amount} a refund.`,
  refunded: (amount: string, status: string) => `Refund of ${amount}: ${status}.`,
  refundFailed: (amount: string, why: string | null) =>
    `Refund of ${amount}: failed${why ? ` (${why})` : ''}.`,
  nothingRefundable: 'Nothing more can be refunded on this payment.',
  refundMore: 'Refund more',
  refundAmountInvalid: 'Enter an amount in naira, such as 500 or 1,250.50.',
  refundAccountTitle: "The payer's account",
  refundBankLabel: "Payer's bank",
  refundBankChoose: 'Choose the bank',
  refundAccountNumberLabel: "Payer's account number (10 digits)",
  refundAccountInvalid: 'Choose the bank and enter the 10-digit account number the payer gave.',
  noRefunds: 'No refunds yet.',
  /** Said instead of the catalogue's words, which name an HTTP header staff never see. */
  formSentTwice:
    'This form was already sent with other details. Check the payment, then try again.',
  consentsTitle: 'Consents and mandates',
  consentTitle: 'Consent',
  referenceLabel: 'Reference',
  noConsents: 'No consents match.',
  moreConsents: 'More consents',
  mandatesTitle: 'Mandates',
  noMandates: 'No mandates: the payer chose no account for future payments.',
  scheduleTitle: 'Future payments',
  noSchedule: 'No future payments are owed.',
  recordTitle: 'Grant record',
  noRecord:
    'No grant record: the consent was not granted, or was granted before records were kept.',
  historyTitle: 'History',
  cancellationsTitle: 'Cancelled future payments',
  cancelTitle: 'Cancel future payments',
  cancelLead: (count: number) =>
    `Cancels the ${count === 1 ? 'future payment' : countNoun(count, 'future payment')} still owed. The payer is told by SMS, with your reason, and sees it on their consents page. Payments already made are not refunded.`,
  cancelReasonLabel: 'Reason (the payer reads it)',
  cancelContinue: 'Cancel future payments…',
  cancelConfirm: 'Yes, cancel them',
  cancelBack: 'Keep them',
  cancelAsk: (count: number) =>
    `Cancel ${countNoun(count, 'future payment')}? This cannot be undone.`,
  cancelled: (count: number, reason: string) =>
    `${countNoun(count, 'future payment')} cancelled: ${reason}`,
  developersTitle: 'Developers',
  keysTitle: 'API keys',
  capabilitiesTitle: 'What this server offers',
  capabilitiesHint:
    'A consent that needs a capability that is off is refused with 409 CAPABILITY_OFF.',
  capabilityOff: 'off',
  /** Before the providers of a capability that stand by behind the first. */
  standingBy: 'standing by:',
  rotateKey: 'Rotate secret',
  graceLabel: 'Old secret keeps working for (hours)',
  newSecret: 'New secret, shown only now:',
  webhooksTitle: 'Webhooks',
  webhooksLead: 'We post each event to your webhooks, signed with each webhook’s own secret.',
  noWebhooks: 'No webhook endpoints yet.',
  addWebhook: 'Add a webhook',
  changeWebhookTitle: 'Change this webhook',
  webhookKeyLabel: 'API key',
  webhookUrlLabel: 'Endpoint URL',
  webhookUrlHint: 'Where we post each event: https, reachable from the internet.',
  webhookUrlInvalid: 'Enter the whole URL of your endpoint, such as https://shop.example/webhooks.',
  webhookUrlRefused:
    'Webhooks go only to https URLs with no user or password, whose host resolves to public addresses.',
  webhookEventsLegend: 'Events to send',
  webhookEveryEvent: 'Every event, and those added later',
  webhookChosenEvents: 'Only the events I choose',
  webhookEventsChoose: 'Events',
  webhookEventsRequired: 'Choose at least one event.',
  webhookAddButton: 'Add webhook',
  webhookSaveButton: 'Save changes',
  webhookCancel: 'Cancel',
  webhookEdit: 'Edit',
  webhookDisable: 'Disable',
  webhookDelete: 'Delete',
  webhookDeleteAsk:
    'Delete this webhook? What it is still owed is given up, and this cannot be undone.',
  webhookDeleteConfirm: 'Delete webhook',
  webhookDeleteBack: 'Keep it',
  webhookEvents: (events: readonly string[] | null) =>
    events === null ? 'Events: all, and those added later' : `Events: ${events.join(', ')}`,
  webhookKey: (clientId: string) => `API key ${clientId}`,
  webhookDisabledBy: {
    receiver: 'Its receiver answered 410 Gone: nothing is sent until you enable it.',
    staff: 'Disabled on the dashboard: nothing is sent until you enable it.',
  },
  webhookAdded: 'Webhook added.',
  webhookChanged: 'Webhook changed.',
  webhookDisabled: 'Webhook disabled.',
  webhookEnabled: 'Webhook enabled.',
  webhookDeleted: 'Webhook deleted.',
  noKeysForWebhooks: 'A webhook belongs to an API key, and you have none yet.',
  secretTitle: 'Signing secret',
  secretLabel: 'Signing secret',
  secretOf: (url: string) => `The signing secret of ${url}.`,
  secretOnce: 'Copy it now and keep it with your receiver: it will not be shown again.',
  secretPrevious: (until: string) => `The previous secret signs too until ${until}.`,
  secretDone: 'Done',
  deliveriesTitle: 'Deliveries',
  noDeliveries: 'No deliveries yet.',
  deadLettersTitle: 'Dead letters',
  deadLettersLead:
    'Deliveries given up after every retry failed on our side. Nothing sends them again until you resend them under Deliveries.',
  noDeadLetters: 'No dead letters.',
  deadLetterTries: (tries: number) => `${tries} ${tries === 1 ? 'try' : 'tries'}`,
  deadSince: (when: string) => `given up ${when}`,
  resend: 'Resend',
  resent: 'Sent again.',
  enable: 'Enable',
  rotateWebhookSecret: 'Rotate signing secret',
  requestTitle: 'Request',
  passkeyWaiting: (when: string) =>
    `This passkey was added by SMS code. Until ${when} it can look at everything, but refunds, cancellations and changes to keys, webhooks and the team wait.`,
  answerTitle: (status: number | null) => (status === null ? 'Answer' : `Answer (${status})`),
  emptyAnswer: '(no body)',
  requestsTitle: 'API requests (7 days)',
  noRequests: 'No API requests in the last 7 days.',
  teamTitle: 'Team',
  inviteTitle: 'Invite someone',
  roleLabel: 'Role',
  limitLabel: 'Refund limit in naira (support)',
  invite: 'Send invitation',
  invited: 'Invitation sent by SMS. Link:',
  pendingTitle: 'Open invitations',
  auditTitle: 'Audit log',
  eventsTitle: 'Events',
  eventTypeLabel: 'Type',
  anyType: 'Any type',
  noEvents: 'No events match. Events are kept for 30 days.',
  moreEvents: 'More events',
  showData: 'Show data',
  formsNav: 'Forms',
  formsTitle: 'Forms and responses',
  noForms: 'No forms yet: your server makes them with POST /api/v1/forms.',
  moreForms: 'More forms',
  responsesTitle: 'Responses',
  noResponses: 'No payer has started this form yet.',
  moreResponses: 'More responses',
  showAnswers: 'Show answers',
  noAnswers: 'No answers saved yet.',
  formFacts: (version: number, responses: number) =>
    `Version ${version} · ${countNoun(responses, 'response')}`,
  answeredWith: (accounts: string) => `Accounts: ${accounts}`,
  submittedAt: (at: string) => `Submitted ${at}`,
  notSubmitted: (at: string) => `Started ${at}, not submitted yet`,
  fileLink: (name: string) => `Download ${name}`,
  sandboxTitle: 'Sandbox tools',
  terminalsTitle: 'Card terminals',
  terminalsLead:
    'The Paystack Terminals payers pay at: each payment is sent to the one the payer picks, by the name you give it here.',
  terminalsNotPushed:
    'This server takes chip cards on a card reader, so there are no terminals to register. They are registered where payments go to Paystack Terminal (TERMINAL_PROVIDER=paystack).',
  terminalsListTitle: 'Registered terminals',
  terminalsNone: 'No terminals yet.',
  terminalAddTitle: 'Register a terminal',
  terminalIdLabel: 'Paystack terminal id',
  terminalIdHint: 'As Paystack’s dashboard shows it under Terminals, e.g. Z0R4orOU.',
  terminalNameLabel: 'Name payers see',
  terminalAdd: 'Register terminal',
  terminalAdded: (name: string) => `${name} registered.`,
  terminalRemove: (name: string) => `Remove ${name}`,
  terminalRemoved: (name: string) => `${name} removed.`,
  sandboxLead:
    'Test money on the sandbox network, for your own payments only. Nothing here moves real money.',
  refresh: 'Refresh',
  paymentOrReferenceLabel: 'Payment id or reference',
  pickPayment: (name: string) => `Use ${name}`,
  sandboxTransferTitle: 'Send a transfer',
  sandboxTransferLead: 'The sandbox bank pays into the payment’s one-time account.',
  sandboxTransferAmountLabel: 'Amount in naira (blank: what is owed)',
  sandboxTransferButton: 'Send transfer',
  noWaitingTransfers: 'No payment is waiting for a transfer.',
  sandboxTransferSent: (amount: string, message: string) =>
    `Transfer of ${amount} sent. ${message}`,
  sandboxChallengeTitle: 'Answer a 3-D Secure check',
  sandboxChallengeLead: 'Answer as the payer would on their bank’s page.',
  sandboxApprove: 'Approve',
  sandboxDecline: 'Decline',
  noWaitingChallenges: 'No card payment is waiting for a 3-D Secure check.',
  sandboxChallengeAnswered: (message: string) => `Answered. ${message}`,
  sandboxEventTitle: 'Fire a webhook event',
  sandboxEventLead: (webhooks: number) =>
    webhooks === 0
      ? 'A test event, marked test_ in its ids, is kept in Events: you have no active webhook to send it to.'
      : `A test event, marked test_ in its ids, goes to your ${countNoun(webhooks, 'active webhook')}.`,
  sandboxEventTypeLabel: 'Event type',
  sandboxEventButton: 'Fire event',
  sandboxEventFired: (type: string, ids: string[]) =>
    `Fired ${type}: ${ids.join(', ') || 'you have no API key to send it for'}.`,
} as const;

/** What an invitation offers: the merchant and the role. */
export const roleInvitation = (merchantName: string, role: TStaffRole) =>
  `${merchantName} invites you to its dashboard as ${ROLE_LABELS[role].toLowerCase()}.`;

/**
 * A future payment's collection on the merchant's payment timeline: the payer told of the debit,
 * and how the collection ended when it ended without the payment (the payment's own 'Paid' entry
 * says a collection that succeeded). null for a collection with nothing of that to say.
 */
export function collectionTimelineWords(collection: {
  status: string;
  failureReason: string | null;
  amount: number;
  dueAt: string;
}): { title: string; detail: string | null } | null {
  const amount = formatNaira(collection.amount);
  const due = `Due ${formatLagosDateTime(collection.dueAt)}`;
  switch (collection.status) {
    case 'skipped':
      return collection.failureReason === 'consent_paused'
        ? {
            title: `${amount} skipped: it fell due while the payer’s payments were paused`,
            detail: `${due}. Nothing was debited.`,
          }
        : { title: `${amount} skipped by the payer`, detail: `${due}. Nothing was debited.` };
    case 'failed':
      return { title: `Collection of ${amount} failed`, detail: collection.failureReason };
    case 'cancelled':
      return { title: `Collection of ${amount} cancelled`, detail: collection.failureReason };
    default:
      return null;
  }
}

/** The notice before a collection, on the merchant's payment timeline. */
export const collectionNoticeWords = (collection: { amount: number; dueAt: string }) => ({
  title: `The payer was told of the ${formatNaira(collection.amount)} debit`,
  detail: `Due ${formatLagosDateTime(collection.dueAt)}`,
});
