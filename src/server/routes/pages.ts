import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TDb } from '../db/database';
import { allowedOriginsOf } from '../services/merchant-clients';

type TPageOptions = { db: TDb; webDir: string };

/**
 * Serves the built page. The consent page may be framed only by origins its merchant client
 * registered (CSP frame-ancestors); without a clientId it shows only an error, which any
 * parent may frame so the embed protocol can report it.
 */
export const pageRoutes: FastifyPluginAsync<TPageOptions> = async (app, { db, webDir }) => {
  const indexFile = path.join(webDir, 'index.html');
  if (!existsSync(indexFile)) {
    throw new Error(`The page is not built: ${indexFile} is missing. Run: npm run build`);
  }
  const indexHtml = readFileSync(indexFile, 'utf8');

  await app.register(fastifyStatic, {
    root: webDir,
    prefix: '/',
    index: false,
    wildcard: false,
    maxAge: '1h',
    setHeaders: (reply, filePath) => {
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        reply.header('Cache-Control', 'public, max-age=31536000, immutable');
      }
    },
  });

  const sendPage = (reply: FastifyReply, frameAncestors: string) =>
    reply
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'strict-origin-when-cross-origin')
      .header('X-Content-Type-Options', 'nosniff')
      .header(
        'Content-Security-Policy',
        [
          "default-src 'self'",
          "img-src 'self' data: https:",
          "style-src 'self' 'unsafe-inline'",
          "script-src 'self'",
          "connect-src 'self'",
          `frame-ancestors ${frameAncestors}`,
        ].join('; '),
      )
      .send(indexHtml);

  app.get<{ Params: { consentId: string }; Querystring: { clientId?: string } }>(
    '/r/:consentId',
    async (request, reply) => {
      const clientId = request.query.clientId?.trim();
      if (!clientId) return sendPage(reply, '*');
      const origins = await allowedOriginsOf(db, clientId);
      return sendPage(reply, ["'self'", ...origins].join(' '));
    },
  );
  for (const route of ['/', '/login', '/sandbox/grant-signing']) {
    app.get(route, async (_request, reply) => sendPage(reply, "'self'"));
  }
};
