/*
 * The merchant dashboard's roles and what each may do (docs/dashboard.md "Roles"). The server
 * checks every route against this table; the page reads it only to hide what would be refused.
 */

/** A staff member's role at one merchant. */
export const STAFF_ROLES = ['owner', 'developer', 'support', 'viewer'] as const;
export type TStaffRole = (typeof STAFF_ROLES)[number];

/** What a route of the dashboard does, as its role check names it. */
export const DASHBOARD_ACTIONS = [
  /** Read payments, their timelines and refunds. */
  'payments.read',
  /** Refund a paid payment (support: up to the limit the owner set). */
  'payments.refund',
  /** Read consents, mandates and their schedules. */
  'consents.read',
  /** Cancel a consent's future payments. */
  'consents.cancel',
  /** Invite, change and remove staff. */
  'team.manage',
  /** Read the audit log. */
  'audit.read',
  /** Read and rotate API keys, change their origins. */
  'keys.manage',
  /** Read and change webhook endpoints, their deliveries, resend. */
  'webhooks.manage',
  /** Read the API request log and the events. */
  'logs.read',
  /** Read the forms and the payers' responses to them. */
  'forms.read',
  /** The sandbox's tools, on a sandbox server. */
  'sandbox.use',
  /** Register and remove the merchant's card terminals (Paystack Terminal). */
  'terminals.manage',
  /** Read each capability's providers, their health and the payments failover recovered. */
  'routes.read',
  /** Pin, pause and clear a provider of a capability for the merchant's new work. */
  'routes.manage',
] as const;
export type TDashboardAction = (typeof DASHBOARD_ACTIONS)[number];

const READS: TDashboardAction[] = ['payments.read', 'consents.read'];

/** Each role's actions: the one table both sides read. */
export const ROLE_ACTIONS: Record<TStaffRole, readonly TDashboardAction[]> = {
  owner: DASHBOARD_ACTIONS,
  developer: [
    ...READS,
    'keys.manage',
    'webhooks.manage',
    'logs.read',
    'forms.read',
    'sandbox.use',
    'routes.read',
  ],
  support: [...READS, 'payments.refund', 'consents.cancel', 'forms.read'],
  viewer: READS,
};

export const mayDo = (role: TStaffRole, action: TDashboardAction): boolean =>
  ROLE_ACTIONS[role].includes(action);

/**
 * The action each screen of the dashboard needs: a role without it is not offered the screen, and
 * one that reaches it by its address is told so, without the screen's forms.
 */
export const SCREEN_ACTIONS = {
  consents: 'consents.read',
  forms: 'forms.read',
  events: 'logs.read',
  developers: 'webhooks.manage',
  team: 'team.manage',
  sandbox: 'sandbox.use',
  terminals: 'terminals.manage',
  routes: 'routes.read',
} as const satisfies Record<string, TDashboardAction>;
export type TDashboardScreen = keyof typeof SCREEN_ACTIONS;

/** The role as the team screen names it. */
export const ROLE_LABELS: Record<TStaffRole, string> = {
  owner: 'Owner',
  developer: 'Developer',
  support: 'Support',
  viewer: 'Viewer',
};

/** What the team screen says each role may do. */
export const ROLE_SUMMARIES: Record<TStaffRole, string> = {
  owner: 'Everything, including the team, keys and the audit log.',
  developer:
    'API keys, webhooks, request logs, events and sandbox tools; reads payments and forms.',
  support: 'Payments, refunds up to a limit, consents, forms.',
  viewer: 'Reads payments and consents.',
};

/** An invitation link is good for this long. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** A dashboard session ends after this long without a request… */
export const DASHBOARD_IDLE_MS = 30 * 60 * 1000;
/** …and after this long whatever happens. */
export const DASHBOARD_SESSION_MAX_MS = 12 * 60 * 60 * 1000;
/** The API request log keeps this many days. */
export const REQUEST_LOG_DAYS = 7;

/** The dashboard's page, and an invitation's link below it. */
export const DASHBOARD_PATH = '/dashboard';
export const invitationUrl = (publicUrl: string, token: string) =>
  `${publicUrl}${DASHBOARD_PATH}/join#${token}`;

/** The SMS of the code that accepts an invitation or recovers a passkey. */
export function dashboardCodeMessage(input: {
  productName: string;
  merchantName: string;
  code: string;
  minutes: number;
  host: string;
}): string {
  return `${input.productName}: your code is ${input.code}, for ${input.merchantName}'s dashboard. It expires in ${input.minutes} minutes. Never share it with anyone.\n\n@${input.host} #${input.code}`;
}

/** The SMS a payer gets when a merchant's staff cancels their future payments. */
export function futurePaymentsCancelledMessage(input: {
  productName: string;
  merchantName: string;
  count: number;
  reason: string;
  consentsUrl: string;
}): string {
  const payments = input.count === 1 ? '1 future payment' : `${input.count} future payments`;
  return `${input.productName}: ${input.merchantName} cancelled ${payments} you had agreed to. Reason: ${input.reason}. See ${input.consentsUrl}`;
}
