import { LRUCache } from 'lru-cache';
import type { TAppContext } from '../context';
import { isOff } from '../providers/off';
import type { TBanksPort } from '../providers/payments';
import type { TClock } from '../clock';

/*
 * Banks' names by CBN institution code, for what the server draws and shows itself (a bank's
 * logo, the bank of a BVN look-up's account): the banks capability's own list, which each adapter
 * keeps for hours, so no name is the sandbox's under a real provider. A code the list does not
 * hold has no name, and neither has any code while the capability is off or its provider does
 * not answer: what the name was for then shows its default (the default logo, "Bank 058"), never
 * an error.
 *
 * The names are kept here a minute, by the provider whose list they are: the page asks for a
 * logo of every bank it shows at once, and those asks share one read of the list. A list that
 * could not be read is not asked for again for UNREADABLE_FOR_MS, so a provider that does not
 * answer is asked once for a page of logos, not once for each.
 */

type TBankNamesContext = Pick<TAppContext, 'providers' | 'clock'>;

/** Every listed bank's name by its code; null: the list cannot be read now. */
export type TBankNames = ReadonlyMap<string, string> | null;

/** How long the names read from a list are kept. */
export const NAMES_KEPT_MS = 60_000;
/** How long a list that could not be read is not asked for again. */
export const UNREADABLE_FOR_MS = 30_000;

/**
 * The names of one banks port's list, kept by the clock that tells their age (an app's; a test's
 * own): one entry, read on demand.
 */
const kept = new WeakMap<TClock, WeakMap<TBanksPort, LRUCache<'names', { names: TBankNames }>>>();

function namesOf(port: TBanksPort, clock: TClock) {
  const byPort = kept.get(clock) ?? new WeakMap();
  kept.set(clock, byPort);
  const known = byPort.get(port);
  if (known) return known;
  const cache = new LRUCache<'names', { names: TBankNames }>({
    max: 1,
    ttl: NAMES_KEPT_MS,
    // The app's clock, read each time: a remembered reading (the default, for 1 ms) would miss a
    // test's clock moved on meanwhile.
    perf: { now: () => clock.now().getTime() },
    ttlResolution: 0,
    fetchMethod: async (_key, _stale, { options }) => {
      try {
        const banks = await port.listBanks();
        return { names: new Map(banks.map((bank) => [bank.institutionCode, bank.name])) };
      } catch {
        options.ttl = UNREADABLE_FOR_MS;
        return { names: null };
      }
    },
  });
  byPort.set(port, cache);
  return cache;
}

/** Every listed bank's name by its code; null when the list cannot be read now. */
export async function bankNames(ctx: TBankNamesContext): Promise<TBankNames> {
  const port = ctx.providers.payments.banks;
  if (isOff(port)) return null;
  return (await namesOf(port, ctx.clock).fetch('names'))?.names ?? null;
}

/**
 * One bank's name: null for a code not listed, and while the list cannot be read (`unreadable`:
 * what is drawn for it then is not kept as the bank's for long).
 */
export async function bankNameOf(
  ctx: TBankNamesContext,
  institutionCode: string,
): Promise<{ name: string | null; unreadable: boolean }> {
  const names = await bankNames(ctx);
  return { name: names?.get(institutionCode) ?? null, unreadable: names === null };
}
