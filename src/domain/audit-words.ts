/*
 * What the dashboard's audit log says of each thing staff did (docs/dashboard.md "Audit log"):
 * the log keeps a code per act and the thing acted on; staff read a sentence, and the thing as a
 * link where the dashboard has a page for it.
 */

export const AUDIT_WORDS = {
  'staff.signed_in': 'Signed in',
  'staff.signed_out': 'Signed out',
  'staff.passkey_added': 'Added a passkey',
  'staff.passkey_added_by_code':
    'Added a passkey by SMS code: it reads at once and changes nothing for 24 hours',
  'team.invited': 'Invited someone to the team',
  'team.joined': 'Joined the team',
  'team.changed': "Changed a team member's role or limit",
  'team.removed': 'Removed someone from the team',
  'team.invitation_withdrawn': 'Withdrew an invitation',
  'payment.refunded': 'Refunded a payment',
  'consent.future_payments_cancelled': 'Cancelled future payments',
  'key.rotated': "Rotated an API key's secret",
  'key.origins_changed': "Changed an API key's origins",
  'webhook.added': 'Added a webhook',
  'webhook.changed': "Changed a webhook's URL or events",
  'webhook.disabled': 'Turned a webhook off',
  'webhook.deleted': 'Deleted a webhook',
  'webhook.resent': 'Sent a webhook delivery again',
  'webhook.enabled': 'Turned a webhook on',
  'webhook.secret_rotated': "Rotated a webhook's signing secret",
  'sandbox.transfer_sent': 'Sent a sandbox transfer to a payment',
  'sandbox.challenge_answered': "Answered a sandbox card's 3-D Secure check",
  'sandbox.event_fired': 'Sent a test webhook event',
  'terminal.added': 'Registered a card terminal',
  'terminal.removed': 'Removed a card terminal',
  'route.pinned': 'Pinned a provider for new work',
  'route.paused': 'Paused a provider for new work',
  'route.cleared': "Cleared a provider's pin or pause",
} as const;

export type TAuditAction = keyof typeof AUDIT_WORDS;

const isKnown = (action: string): action is TAuditAction => Object.hasOwn(AUDIT_WORDS, action);

/** The sentence for an act; an act this page does not know yet is shown by its code. */
export const auditWords = (action: string): string =>
  isKnown(action) ? AUDIT_WORDS[action] : action;

/** Acts whose target says nothing to a person: a passkey's credential id. */
const UNNAMED_TARGETS: ReadonlySet<string> = new Set([
  'staff.passkey_added',
  'staff.passkey_added_by_code',
]);

/** The thing an act touched, as the log names it; null where naming it helps no one. */
export const auditTarget = (action: string, target: string | null): string | null =>
  UNNAMED_TARGETS.has(action) ? null : target;

/**
 * Where the thing an act touched is shown: a payment's or a consent's page. Other targets (a key,
 * a webhook, a team member) are named without a link.
 */
export function auditTargetPath(target: string | null): string | null {
  if (!target) return null;
  if (target.startsWith('pay_')) return `/payments/${encodeURIComponent(target)}`;
  if (target.startsWith('cns_')) return `/consents/${encodeURIComponent(target)}`;
  return null;
}
