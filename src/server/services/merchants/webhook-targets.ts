import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { THostResolver, TResolvedAddress } from '../../providers/host-resolver';

/*
 * Where a webhook may go (docs/webhooks.md, "Where a webhook may go"). A merchant names the URL,
 * so without these checks the server would post, and report the answer of, any address it can
 * reach: cloud metadata, the database, this machine. The rule, at registration and again before
 * every delivery (a name's answer can change): https only, and every address the host resolves
 * to is public unicast; the connection then goes to an address just checked, never to a second
 * answer of the DNS.
 */

/** ipaddr.js's names of the ranges a webhook may reach: public unicast only. */
const PUBLIC_RANGES: ReadonlySet<string> = new Set(['unicast']);
/**
 * With WEBHOOKS_ALLOW_PRIVATE=on (a developer's receiver, the sandbox demo) this machine and
 * private networks as well; link-local (169.254.169.254 is cloud metadata), unspecified,
 * multicast and reserved addresses never.
 */
const PRIVATE_RANGES: ReadonlySet<string> = new Set([
  'unicast',
  'loopback',
  'private',
  'uniqueLocal',
  'carrierGradeNat',
]);
/**
 * IPv6 global unicast (RFC 4291). ipaddr.js calls every IPv6 address outside its special ranges
 * 'unicast', the deprecated IPv4-compatible ::a.b.c.d among them.
 */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

function reachable(address: string, allowPrivate: boolean): boolean {
  // Only canonical addresses reach ipaddr.js (the resolver's answers, or a URL's host as WHATWG
  // URL writes it): its parser would also take spellings such as 0x7f.1.
  if (isIP(address) === 0) return false;
  // process(): an IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 it maps.
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (!(allowPrivate ? PRIVATE_RANGES : PUBLIC_RANGES).has(range)) return false;
  return parsed.kind() === 'ipv4' || range !== 'unicast' || parsed.match(GLOBAL_UNICAST_V6);
}

export type TWebhookTarget = { url: URL } & TResolvedAddress;

/**
 * The URL and the address to connect to, or null when a webhook may not go there: not https
 * (http too with `allowPrivate`), a user or password in it, a host that does not resolve, or any of its addresses outside
 * the allowed ranges. WHATWG URL has already written every IPv4 spelling of the host
 * (2130706433, 0x7f000001, 0177.0.0.1, 127.1) as a.b.c.d, and IPv6 in brackets.
 */
export async function webhookTarget(
  dns: THostResolver,
  allowPrivate: boolean,
  raw: string,
): Promise<TWebhookTarget | null> {
  if (!URL.canParse(raw)) return null;
  const url = new URL(raw);
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return null;
  // A user or password in the URL would travel to the receiver as Basic credentials of ours.
  if (url.username || url.password) return null;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(host);
  const answers: TResolvedAddress[] =
    family === 4 || family === 6 ? [{ address: host, family }] : await dns(host).catch(() => []);
  const [first] = answers;
  if (!first || !answers.every(({ address }) => reachable(address, allowPrivate))) return null;
  return { url, address: first.address, family: first.family };
}

/** A lookup that answers the address already checked, whatever the DNS would say now. */
function pinnedLookup({ address, family }: TResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

export type TPostOutcome =
  { status: number; retryAfter?: string; body: string } | { failure: 'timeout' | 'unreachable' };

/** How much of an endpoint's answer body the delivery log keeps, in bytes. */
export const WEBHOOK_BODY_KEPT = 2_048;

/**
 * POSTs `body` to the target's checked address, and answers the status, Retry-After and the
 * first WEBHOOK_BODY_KEPT bytes of the answer's body (for the delivery log; what arrives before
 * the time limit, as text without NUL characters, which PostgreSQL's text refuses): a redirect is
 * not followed (http.request never does), and the rest of the body is never read.
 */
export function postToTarget(
  target: TWebhookTarget,
  request: { headers: Record<string, string>; body: string; timeoutMs: number },
): Promise<TPostOutcome> {
  const signal = AbortSignal.timeout(request.timeoutMs);
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    // Once the head came, the outcome is its status with the body read so far, however it ends.
    let answered: (() => void) | null = null;
    const outgoing = send(
      target.url,
      {
        method: 'POST',
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        // A connection of its own each time, to this target's address: no pooled socket.
        agent: false,
        lookup: pinnedLookup(target),
        signal,
      },
      (response) => {
        const retryAfter = response.headers['retry-after'];
        const chunks: Buffer[] = [];
        let kept = 0;
        answered = () => {
          const body = Buffer.concat(chunks)
            .subarray(0, WEBHOOK_BODY_KEPT)
            .toString('utf8')
            .replaceAll('\u0000', '');
          resolve({
            status: response.statusCode ?? 0,
            ...(retryAfter ? { retryAfter } : {}),
            body,
          });
          response.destroy();
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          kept += chunk.length;
          if (kept >= WEBHOOK_BODY_KEPT) answered?.();
        });
        for (const ending of ['end', 'error', 'close']) response.once(ending, () => answered?.());
      },
    );
    outgoing.on('error', () => {
      if (answered) answered();
      else resolve({ failure: signal.aborted ? 'timeout' : 'unreachable' });
    });
    outgoing.end(request.body);
  });
}
