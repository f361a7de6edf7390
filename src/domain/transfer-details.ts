import { DEFAULT_TRANSFER_BANK_NAME, ONE_TIME_ACCOUNT_TTL_MS } from './constants';

/** The bank shown in Pay with Transfer details: the account's bank, else 'Rubies MFB' (spec §2). */
export function transferBankName(bankName: string | null | undefined): string {
  return bankName?.trim() || DEFAULT_TRANSFER_BANK_NAME;
}

/**
 * The one-time account's countdown (spec §2 shows a fixed '29m : 30s'; ours counts down to the
 * account's real expiry in that format): minutes and seconds left, null once it has expired.
 */
export function transferCountdown(expiresAt: string | Date, now: Date): string | null {
  const left = Math.ceil((new Date(expiresAt).getTime() - now.getTime()) / 1_000);
  if (!(left > 0)) return null;
  const minutes = Math.floor(left / 60);
  const seconds = left % 60;
  return `${minutes}m : ${String(seconds).padStart(2, '0')}s`;
}

/**
 * When a one-time account stops taking money (docs/payments.md "Transfer"): 30 minutes after its
 * issue, or at `notAfter` when that comes first. A payment's account never outlives its consent's
 * expiry; a transfer after it goes back to its sender.
 */
export function oneTimeAccountExpiry(issuedAt: Date, notAfter?: Date | null): Date {
  const ownExpiry = issuedAt.getTime() + ONE_TIME_ACCOUNT_TTL_MS;
  return new Date(notAfter ? Math.min(ownExpiry, notAfter.getTime()) : ownExpiry);
}
