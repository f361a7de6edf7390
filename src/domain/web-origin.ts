/*
 * A merchant's embedding origin (docs/merchant-clients.md, "Embedding origins"): each one goes
 * into the consent page's Content-Security-Policy `frame-ancestors`, where a comma ends the
 * policy and a wildcard lets other hosts frame the page. So an origin is accepted only as the
 * WHATWG URL parser writes a page's origin (scheme, host, port, nothing else), and only with a
 * host that CSP's host-source grammar reads as one host: letters, digits, hyphens and dots.
 */

/** An origin as a browser writes it, for the messages that say what is expected. */
const EXAMPLE = 'https://shop.example';

/** CSP host-source's host-part without its wildcard: 1*host-char *( "." 1*host-char ). */
const CSP_HOST = /^[a-z0-9-]+(\.[a-z0-9-]+)*$/;

/** Plain http is for a developer's own machine only: a merchant's live page is https. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1']);

/**
 * Why `text` is not an embedding origin a merchant may register, or null when it is one: a
 * string is one only when `new URL(text).origin === text`, its scheme is https (http for
 * localhost), and its host is one DNS name or IPv4 address.
 */
export function webOriginProblem(text: string): string | null {
  if (text.includes(',')) return 'must be one origin (no commas): register each origin apart';
  if (text.includes('*')) return 'must name one host (no wildcards): register each origin apart';
  if (/\s/.test(text)) return 'must not contain spaces';
  if (!URL.canParse(text)) return `must be an origin such as ${EXAMPLE}`;
  const url = new URL(text);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return `must be an https origin such as ${EXAMPLE}`;
  }
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    return 'must be https (http only for localhost and 127.0.0.1)';
  }
  if (!CSP_HOST.test(url.hostname)) {
    return 'must name its host with letters, digits, hyphens and dots (IDN in its xn-- form)';
  }
  if (url.origin !== text) {
    return `must be the origin alone, as a browser writes it (no path, user, default port or uppercase): ${url.origin}`;
  }
  return null;
}

/** Whether `text` is an embedding origin a merchant may register (webOriginProblem). */
export const isWebOrigin = (text: string): boolean => webOriginProblem(text) === null;
