import { SANDBOX_BANKS } from './fixtures';

/*
 * The sandbox's banks' names by CBN institution code, for the sandbox's own bank, people and
 * pages. The rest of the server reads banks' names from the banks capability
 * (services/bank-names.ts), whichever provider serves it.
 */

const NAMES = new Map(SANDBOX_BANKS.map((bank) => [bank.institutionCode, bank.name]));

/** The bank's name, or null for a code the directory does not know. */
export function bankName(institutionCode: string): string | null {
  return NAMES.get(institutionCode) ?? null;
}
