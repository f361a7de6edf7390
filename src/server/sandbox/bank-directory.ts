import { SANDBOX_BANKS } from './fixtures';

/*
 * Bank names by CBN institution code, for what the server draws and shows itself (bank logos).
 * The sandbox's banks for now; a real provider's bank directory replaces this one function.
 */

const NAMES = new Map(SANDBOX_BANKS.map((bank) => [bank.institutionCode, bank.name]));

/** The bank's name, or null for a code the directory does not know. */
export function bankName(institutionCode: string): string | null {
  return NAMES.get(institutionCode) ?? null;
}
