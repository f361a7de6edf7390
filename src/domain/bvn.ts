/*
 * The Bank Verification Number (docs/identity.md "The BVN"): the identity Nigerian banking
 * anchors a person to. Eleven digits; a payer proves one is theirs by a code the BVN registry sends
 * to a contact of the BVN's holder, and an account is theirs when its holder's BVN is that one.
 */

export const BVN_LENGTH = 11;
/** The code the BVN registry sends (NIBSS's iGree OTP): 6 digits, as sign-in codes. */
export const BVN_CODE_LENGTH = 6;
/** How long a verification the registry opened may be finished. */
export const BVN_CODE_TTL_MS = 10 * 60_000;
export const BVN_CODE_MAX_WRONG_TRIES = 5;
/**
 * Verifications a payer may open per rolling hour: each asks the registry (a billed lookup, and
 * maybe a code to someone else's phone).
 */
export const BVN_CODES_PER_PAYER_PER_HOUR = 5;
/** Codes one verification may send, the first and the resends, whichever way: each is billed. */
export const BVN_CODE_SENDS_PER_VERIFICATION = 3;

/** The digits of a BVN as a person types it (spaces and dashes allowed), or null. */
export function toBvn(input: string): string | null {
  const digits = input.replace(/[\s-]/g, '');
  return new RegExp(`^\\d{${BVN_LENGTH}}$`).test(digits) ? digits : null;
}

/** What the page shows of a BVN: its last 4 digits only ('•••••••1234'). */
export function maskedBvn(last4: string): string {
  return `${'•'.repeat(BVN_LENGTH - last4.length)}${last4}`;
}

/** Where the code went, without giving the BVN's phone away: '0803 *** **42'. */
export function maskedPhone(nationalFormat: string): string {
  const digits = nationalFormat.replace(/\D/g, '');
  if (digits.length < 6) return nationalFormat;
  return `${digits.slice(0, 4)} *** **${digits.slice(-2)}`;
}
