import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TRouteContext } from '../context';
import { newNonce, setPageHeaders } from '../response-headers';
import { embedOriginsOfConsent } from '../services/merchants/embed-origins';
import { PAYER_CONSENTS_PATH } from '../../domain/payer-pages';

type TPageOptions = Pick<TRouteContext, 'db'> & { webDir: string };

/** A file of a released embed script: under sdk/v<major>.<minor>.<patch>/. */
const RELEASED_SDK = /[\\/]sdk[\\/]v\d+\.\d+\.\d+[\\/]/;
/** The embed script's moving addresses (/sdk/v1/, the manifest): a new release reaches them soon. */
export const SDK_ALIAS_CACHE = 'public, max-age=300';

/** Where each answer's extra head tags (the consent preload) go. */
const HEAD_SLOT = '\u0001';

/**
 * The built page with a nonce on every script and module preload, and on the meta tag Vite's
 * preload helper reads it from for the preloads it adds later; `head` goes first in <head>. The
 * file is read once; each answer fills in its own nonce.
 */
function pageWithNonce(html: string): (nonce: string, head?: string) => string {
  const [beforeSlot = '', afterSlot = ''] = html
    .replace(/<head>/, `<head>\n    <meta property="csp-nonce" nonce="\0">${HEAD_SLOT}`)
    .replace(/<script\b/g, '<script nonce="\0"')
    .replace(/<link\b(?=[^>]*\brel=["']?modulepreload\b)/g, '<link nonce="\0"')
    .split(HEAD_SLOT);
  const before = beforeSlot.split('\0');
  const after = afterSlot.split('\0');
  return (nonce, head = '') => before.join(nonce) + head + after.join(nonce);
}

/**
 * The scripts the consent page loads after its first paint, as the build lists them
 * (vite.config.ts): named in its HTML as module preloads of low priority, so they download
 * while the first paint's scripts run, behind them, instead of after. None without the list.
 */
function consentPageModulePreloads(webDir: string): string {
  const listFile = path.join(webDir, '.vite/consent-page-preloads.json');
  if (!existsSync(listFile)) return '';
  const files = JSON.parse(readFileSync(listFile, 'utf8')) as string[];
  return files
    .map(
      (file) => `\n    <link rel="modulepreload" fetchpriority="low" crossorigin href="/${file}">`,
    )
    .join('');
}

/** Ids as we issue them (services/merchants/embed-origins.ts): they read the same encoded or not. */
const ISSUED_ID = /^[\w-]{1,100}$/;

const preloadFetch = (href: string) =>
  `\n    <link rel="preload" as="fetch" crossorigin href="${href}">`;

/**
 * Asks the browser for the calls the consent page makes first while it still parses the page, so
 * their answers are there when the page's script asks (one request each, not two): the consent,
 * and the public config (the auth prompt's product name). URL, mode and credentials must be the
 * page's own (src/web/api/consent.ts consentReadPath, src/web/api/auth.ts; fetch's defaults:
 * cors, same-origin) or the browser fetches twice. The consent only for one clientId and ids as
 * we issue them, whose URL is the same on both sides.
 */
function consentPagePreloads(consentId: string, clientId: string | null): string {
  const consent =
    clientId !== null && ISSUED_ID.test(consentId) && ISSUED_ID.test(clientId)
      ? preloadFetch(
          `/api/consent/${encodeURIComponent(consentId)}?clientId=${encodeURIComponent(clientId)}`,
        )
      : '';
  return consent + preloadFetch('/api/public-config');
}

/**
 * Serves the built page. The consent page may be framed only by origins registered by the client
 * that owns the consent (CSP frame-ancestors, services/merchants/embed-origins.ts); without a clientId it
 * shows only an error, which any parent may frame so the embed protocol can report it.
 */
export const pageRoutes: FastifyPluginAsync<TPageOptions> = async (app, { db, webDir }) => {
  const indexFile = path.join(webDir, 'index.html');
  if (!existsSync(indexFile)) {
    throw new Error(`The page is not built: ${indexFile} is missing. Run: npm run build`);
  }
  const html = readFileSync(indexFile, 'utf8');
  const renderPage = pageWithNonce(html);
  const renderConsentPage = pageWithNonce(
    html.replace('</head>', `${consentPageModulePreloads(webDir)}\n  </head>`),
  );

  // Brotli or gzip, as the browser accepts. The build's files come compressed already
  // (vite.config.ts writes .br and .gz beside each): sent as they are, never compressed again;
  // page answers are compressed here when they pass the plugin's 1 KB threshold.
  await app.register(fastifyCompress, { encodings: ['br', 'gzip'] });
  await app.register(fastifyStatic, {
    root: webDir,
    prefix: '/',
    index: false,
    wildcard: false,
    // index.html only through the page routes, which give it its CSP; source maps stay on the
    // server for error reporting, never public.
    // .br and .gz are served for their file (preCompressed), not at their own address.
    globIgnore: ['index.html', '**/*.map', '**/*.br', '**/*.gz'],
    preCompressed: true,
    maxAge: '1h',
    setHeaders: (reply, filePath) => {
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        reply.header('Cache-Control', 'public, max-age=31536000, immutable');
      }
      // The embed script, loaded by merchants' pages with crossorigin="anonymous": readable
      // from any origin. At its version's address (/sdk/v1.2.3/) it never changes, so pages pin
      // it by its integrity hash and browsers keep it; its major's (/sdk/v1/) follows the newest
      // release, and the manifest the releases, so browsers ask again soon (docs/sdk.md).
      if (filePath.includes(`${path.sep}sdk${path.sep}`)) {
        reply.header(
          'Cache-Control',
          RELEASED_SDK.test(filePath) ? 'public, max-age=31536000, immutable' : SDK_ALIAS_CACHE,
        );
        reply.header('Access-Control-Allow-Origin', '*');
        reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
      }
    },
  });

  const sendPage = (reply: FastifyReply, frameAncestors: string) => {
    const nonce = newNonce();
    return setPageHeaders(reply, { nonce, frameAncestors }).send(renderPage(nonce));
  };
  const sendConsentPage = (reply: FastifyReply, frameAncestors: string, preloads: string) => {
    const nonce = newNonce();
    return setPageHeaders(reply, { nonce, frameAncestors }).send(
      renderConsentPage(nonce, preloads),
    );
  };

  app.get<{ Params: { consentId: string }; Querystring: Record<string, string | string[]> }>(
    '/r/:consentId',
    async (request, reply) => {
      const { consentId } = request.params;
      const clientId = request.query.clientId;
      // Blank is absent, as the page reads it (page-params.ts).
      if (clientId === undefined || (typeof clientId === 'string' && !clientId.trim())) {
        return sendConsentPage(reply, '*', consentPagePreloads(consentId, null));
      }
      // A repeated clientId names no one client: no merchant may frame the page, and the page
      // reads the first, so its consent is not preloaded.
      if (typeof clientId !== 'string') {
        return sendConsentPage(reply, "'self'", consentPagePreloads(consentId, null));
      }
      const origins = await embedOriginsOfConsent(db, consentId, clientId.trim());
      return sendConsentPage(
        reply,
        ["'self'", ...origins].join(' '),
        consentPagePreloads(consentId, clientId.trim()),
      );
    },
  );
  for (const route of [
    '/',
    '/login',
    PAYER_CONSENTS_PATH,
    '/f/:formId',
    '/sandbox/grant-signing',
  ]) {
    app.get(route, async (_request, reply) => sendPage(reply, "'self'"));
  }
};
