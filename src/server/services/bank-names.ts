import type { TAppContext } from '../context';
import { usable } from '../providers/off';

/*
 * Banks' names by CBN institution code, for what the server draws and shows itself (a bank's
 * logo, the bank of a BVN look-up's account): the banks capability's own list, which each adapter
 * keeps for hours, so no name is the sandbox's under a real provider. A code the list does not
 * hold has no name, and neither has any code while the capability is off or its provider does
 * not answer: what the name was for then shows its default (the default logo, "Bank 058"), never
 * an error.
 */

type TBankNamesContext = Pick<TAppContext, 'providers'>;

/** Every listed bank's name by its code; empty when the list cannot be read now. */
export async function bankNames(ctx: TBankNamesContext): Promise<ReadonlyMap<string, string>> {
  try {
    const banks = await usable(ctx.providers.payments.banks).listBanks();
    return new Map(banks.map((bank) => [bank.institutionCode, bank.name]));
  } catch {
    return new Map();
  }
}

/** One bank's name; null for a code not listed, or while the list cannot be read. */
export async function bankNameOf(
  ctx: TBankNamesContext,
  institutionCode: string,
): Promise<string | null> {
  return (await bankNames(ctx)).get(institutionCode) ?? null;
}
