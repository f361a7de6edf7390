import { UNAPPROVED_PASSKEY_WAIT_MS } from './passkey-trust';

/*
 * The offer of a passkey after an SMS code (sign-up, or a code sign-in on a device without one),
 * and what its 'Not now' costs (docs/identity.md "When a passkey is trusted"): a payer's first
 * passkey, made before anything is linked, approves payments at once; one made after an account
 * is linked or a consent granted, with no passkey of theirs to approve it, waits 24 hours. A new
 * payer who skips it, links an account and then makes one at the grant finds it cannot approve
 * the grant until the next day, unless they were told here.
 */

const WAIT_HOURS = UNAPPROVED_PASSKEY_WAIT_MS / 3_600_000;

/**
 * What 'Not now' costs, said beside it; null where another of the payer's passkeys can approve a
 * later one, so skipping costs nothing. `newAccount`: the payer signed up just now, so a passkey
 * made now approves at once.
 */
export function passkeySkipCost(input: {
  newAccount: boolean;
  passkeyCount: number;
}): string | null {
  if (input.passkeyCount > 0) return null;
  const later = `Skip it, and a passkey you create after linking an account or granting a consent can approve payments and mandates only ${WAIT_HOURS} hours after you create it.`;
  return input.newAccount ? `${later} Created now, it can approve them at once.` : later;
}
