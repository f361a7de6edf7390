import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isWebOrigin } from '../domain/web-origin';
import type { TConfig } from './config';

/** One year. No includeSubDomains: the operator's other hosts are not ours to force onto
 * HTTPS. */
const HSTS = 'max-age=31536000';

const isApiRequest = (request: FastifyRequest) => /^\/api(\/|\?|$)/.test(request.url);
const isJson = (reply: FastifyReply) =>
  String(reply.getHeader('content-type') ?? '').startsWith('application/json');

/**
 * Headers every answer of the app carries (docs/security.md). Registered on the root before any
 * route, so every route, the error handler and the not-found handler pass through it.
 */
export function applyResponseHeaders(app: FastifyInstance, config: TConfig): void {
  app.addHook('onSend', async (request, reply, payload) => {
    // No answer of ours is meant to be read as another type than the one it declares.
    reply.header('X-Content-Type-Options', 'nosniff');
    if (config.hsts) reply.header('Strict-Transport-Security', HSTS);
    // API answers hold a payer's data or a state that changes: no cache may keep them. A route
    // that chose its own caching keeps it.
    if ((isApiRequest(request) || isJson(reply)) && !reply.hasHeader('cache-control')) {
      reply.header('Cache-Control', 'no-store');
    }
    return payload;
  });
}

/** The keywords pages are framed with, besides merchants' origins. */
const FRAME_KEYWORDS = new Set(["'self'", "'none'", '*']);

const isFrameAncestor = (source: string) => FRAME_KEYWORDS.has(source) || isWebOrigin(source);

/** A fresh CSP nonce: 128 random bits, new for every page answer. */
export const newNonce = (): string => randomBytes(16).toString('base64');

/**
 * Headers of an HTML page. Scripts run only with this answer's nonce, so an injected script tag
 * cannot run; inline styles only with it too (React's style props go through the CSSOM, which
 * CSP allows). frameAncestors: who may frame the page.
 */
export function setPageHeaders(
  reply: FastifyReply,
  { nonce, frameAncestors }: { nonce: string; frameAncestors: string },
): FastifyReply {
  // A source that is not one origin (a comma, a wildcard, a path) would end the policy or let
  // another host frame the page: the answer fails rather than carry it.
  const stray = frameAncestors.split(' ').find((source) => !isFrameAncestor(source));
  if (stray !== undefined) {
    throw new Error(`frame-ancestors source is not an origin: ${JSON.stringify(stray)}`);
  }
  return reply
    .header('Content-Type', 'text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'strict-origin-when-cross-origin')
    .header(
      'Content-Security-Policy',
      [
        "default-src 'self'",
        `script-src 'nonce-${nonce}'`,
        `style-src 'self' 'nonce-${nonce}'`,
        "img-src 'self' data: https:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        `frame-ancestors ${frameAncestors}`,
      ].join('; '),
    );
}
