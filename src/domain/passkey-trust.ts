import { PAYER_CONSENTS_PATH } from './payer-pages';
import { formatLagosDateTime } from './payment-date';

/*
 * When a passkey may authorise money (docs/identity.md "When a passkey is trusted"). A code sent
 * by SMS proves the number, not the person: a SIM swap or a code read over someone's shoulder
 * signs an attacker in. So a passkey added after a code alone does not sign away the payer's
 * money until the payer has had a day to notice the SMS that tells them of it.
 */

/**
 * How a passkey came to be trusted, kept on its row:
 * - 'not-needed': the payer's first passkey, made before anything was linked and while they are on
 *   no merchant's dashboard team but the one whose invitation they are accepting (nothing to take
 *   yet), or a passkey that existed before the rule: it signs at once.
 * - 'approved': one of the payer's trusted passkeys approved it as it was added: it signs at once.
 * - 'none': added without approval (a lost device, or an attacker with an SMS code): it signs the
 *   payer in, but signs no debit, mandate or link until UNAPPROVED_PASSKEY_WAIT_MS after it was
 *   added.
 */
export const PASSKEY_APPROVALS = ['not-needed', 'approved', 'none'] as const;
export type TPasskeyApproval = (typeof PASSKEY_APPROVALS)[number];

/** How long a passkey added without approval waits before it may authorise money. */
export const UNAPPROVED_PASSKEY_WAIT_MS = 24 * 60 * 60_000;

/** From when a passkey may sign a debit, a mandate or a link. */
export function passkeySignsFrom(passkey: { approval: TPasskeyApproval; createdAt: Date }): Date {
  return passkey.approval === 'none'
    ? new Date(passkey.createdAt.getTime() + UNAPPROVED_PASSKEY_WAIT_MS)
    : passkey.createdAt;
}

/**
 * The SMS each other owner of a merchant gets when a member of its dashboard team adds a passkey
 * with an SMS code alone: the member's own number may be the swapped SIM, so the team hears of it
 * too, while the passkey still changes nothing on the dashboard.
 */
export function teamPasskeyMessage(input: {
  productName: string;
  memberName: string;
  memberPhone: string;
  merchantName: string;
  addedAt: Date;
  changesFrom: Date;
  teamPageUrl: string;
}): string {
  return `${input.productName}: ${input.memberName} (${input.memberPhone}) of ${input.merchantName}'s dashboard team added a passkey on ${formatLagosDateTime(input.addedAt)} with an SMS code alone. It can change nothing on the dashboard until ${formatLagosDateTime(input.changesFrom)}. If it was not them, remove them on the Team page: ${input.teamPageUrl}`;
}

/** The SMS the payer's registered number gets when a passkey is added to an account in use. */
export function newDeviceMessage(input: {
  productName: string;
  addedAt: Date;
  approval: Exclude<TPasskeyApproval, 'not-needed'>;
  signsFrom: Date;
  accountPageUrl: string;
}): string {
  const added = `A new device was added to your ${input.productName} account on ${formatLagosDateTime(input.addedAt)}`;
  return input.approval === 'approved'
    ? `${added}, approved with one of your passkeys. If it was not you, remove it on your account page: ${input.accountPageUrl}`
    : `${added}. It can sign you in, and can approve payments, mandates and account links from ${formatLagosDateTime(input.signsFrom)}. If it was not you, remove it now on your account page: ${input.accountPageUrl}`;
}

/*
 * What a session may do depends on its proof (docs/identity.md "Actions and the proof they
 * need"): a session no trusted passkey proved (signed in by an SMS code alone) reads and revokes,
 * but removes no trusted passkey at once, grants nothing and releases no payment.
 */

/** How long a removal asked for by a session without the passkey's proof waits. */
export const PASSKEY_REMOVAL_WAIT_MS = 24 * 60 * 60_000;

/** The page that cancels a scheduled removal, with the token the SMS carries. */
export function removalCancelUrl(publicUrl: string, token: string): string {
  const url = new URL(PAYER_CONSENTS_PATH, publicUrl);
  url.searchParams.set('cancelRemoval', token);
  url.hash = 'devices';
  return url.toString();
}

/** The SMS a payer gets when a session signed in by code alone asks to remove a passkey. */
export function removalScheduledMessage(input: {
  productName: string;
  askedAt: Date;
  dueAt: Date;
  cancelUrl: string;
}): string {
  return `A passkey is to be removed from your ${input.productName} account on ${formatLagosDateTime(input.dueAt)}, asked for on ${formatLagosDateTime(input.askedAt)} from a session signed in by SMS code. If it was not you, cancel it now: ${input.cancelUrl}`;
}

/** The SMS a payer gets when a session signed in by code alone revokes one of their consents. */
export function revokedMessage(input: {
  productName: string;
  merchantName: string;
  revokedAt: Date;
  accountPageUrl: string;
}): string {
  return `Your consent to ${input.merchantName} was revoked on your ${input.productName} account on ${formatLagosDateTime(input.revokedAt)}, from a session signed in by SMS code. If it was not you, check your account: ${input.accountPageUrl}`;
}
