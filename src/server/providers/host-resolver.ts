import { lookup } from 'node:dns/promises';

export type TResolvedAddress = { address: string; family: 4 | 6 };

/**
 * The DNS port: every address a host name resolves to. The webhooks ask it at registration and
 * before each delivery, and connect only to an address it answered (services/merchants/
 * webhook-targets.ts); tests hand in a resolver of their own, so they never ask the network.
 * It rejects when the name does not resolve.
 */
export type THostResolver = (hostname: string) => Promise<TResolvedAddress[]>;

/** How long a name may take to resolve before it counts as not resolving. */
const RESOLVE_TIMEOUT_MS = 5_000;

/**
 * The operating system's resolver (getaddrinfo, so /etc/hosts too), as Node's http would ask it
 * to connect: every answer, not only the first.
 */
export function systemHostResolver(timeoutMs = RESOLVE_TIMEOUT_MS): THostResolver {
  return async (hostname) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // getaddrinfo takes no deadline of its own; a resolver that never answers must not hold a
    // registration or the deliverer.
    const timedOut = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${hostname} did not resolve in ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      const answers = await Promise.race([lookup(hostname, { all: true }), timedOut]);
      return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
    } finally {
      clearTimeout(timer);
    }
  };
}
