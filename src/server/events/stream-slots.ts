import { normalizeIP } from '@fastify/rate-limit';

/*
 * How many event streams each client address holds open (docs/security.md "Slow clients,
 * streams…"): a held stream costs a socket and a watcher for as long as the client keeps it, so
 * one address may hold at most `max`. The address is the request's, as the rate limits count it
 * (TRUST_PROXY decides whose X-Forwarded-For names it; an IPv6 address counts by its /64). The
 * count lives in the process: a slot is a live socket of this process, which Redis's windowed
 * counters cannot release when the socket drops, and a process that dies takes its sockets with
 * it. Behind several processes an address may so hold `max` in each.
 */

export type TStreamSlots = {
  /** Takes a slot for `ip`; the returned release frees it (once, however often called), or null when `ip` holds `max`. */
  take(ip: string): (() => void) | null;
  /** The streams `ip` holds open now. */
  heldBy(ip: string): number;
  /** The streams open now, from every address. */
  open(): number;
};

export function streamSlots(max: number): TStreamSlots {
  const held = new Map<string, number>();
  let open = 0;
  return {
    take(ip) {
      const address = normalizeIP(ip);
      const count = held.get(address) ?? 0;
      if (count >= max) return null;
      held.set(address, count + 1);
      open += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        open -= 1;
        const left = (held.get(address) ?? 1) - 1;
        if (left > 0) held.set(address, left);
        else held.delete(address);
      };
    },
    heldBy: (ip) => held.get(normalizeIP(ip)) ?? 0,
    open: () => open,
  };
}
