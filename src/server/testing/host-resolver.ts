import { isIP } from 'node:net';
import type { THostResolver, TResolvedAddress } from '../providers/host-resolver';

/** A public unicast address (example.com's) that the tests' names under `.example` resolve to. */
export const PUBLIC_TEST_ADDRESS = '93.184.215.14';

/**
 * The tests' DNS: no test asks the network. Names under `.example` (RFC 2606: shop.example,
 * shop.tola.example) resolve to PUBLIC_TEST_ADDRESS, `localhost` as /etc/hosts has it, an
 * address to itself, names a test sets with `answer()` to what it says, and any other name not
 * at all.
 */
export function testHostResolver(): THostResolver & {
  /** From now on `hostname` resolves to these addresses (none: it does not resolve). */
  answer(hostname: string, addresses: string[]): void;
  /** Every name asked, in order. */
  asked: string[];
} {
  const table = new Map<string, string[]>([['localhost', ['127.0.0.1', '::1']]]);
  const asked: string[] = [];
  const resolve = async (hostname: string): Promise<TResolvedAddress[]> => {
    asked.push(hostname);
    const name = hostname.toLowerCase().replace(/\.$/, '');
    const addresses =
      table.get(name) ??
      (isIP(name) !== 0 ? [name] : name.endsWith('.example') ? [PUBLIC_TEST_ADDRESS] : []);
    if (addresses.length === 0) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    }
    return addresses.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
  };
  return Object.assign(resolve, {
    answer(hostname: string, addresses: string[]) {
      table.set(hostname.toLowerCase(), addresses);
    },
    asked,
  });
}
