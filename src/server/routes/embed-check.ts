import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZEmbedCheckResponse } from '../../domain/schemas/embed-check';
import { ZIdentifier, ZPrintable } from '../../domain/schemas/fields';
import type { TRouteContext } from '../context';
import { embedOriginsOfConsent } from '../services/merchants/embed-origins';
import { jsonAnswers } from './responses';

/**
 * Whether a merchant page may frame a consent (docs/sdk.md "Origins"): asked by the embed script
 * from the merchant's page before it loads the consent page, so that an origin the merchant did
 * not register hears `failed` (ORIGIN_NOT_REGISTERED) instead of a frame the browser refuses.
 * The answer is the page's own frame-ancestors for that origin (services/merchants/
 * embed-origins.ts), which anyone may read on /r/{id}?clientId=: it tells no more than the page
 * does. Readable from any origin, never cached (a merchant may register the origin a minute
 * later), counted per address.
 */
export const embedCheckRoutes: FastifyPluginAsync<TRouteContext> = async (app, { db, limits }) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/consent/:consentId/embed-check',
    {
      onRequest: [
        async (_request, reply) => {
          // Every answer, refusals included, is readable by the merchant's script.
          reply.header('Access-Control-Allow-Origin', '*');
          reply.header('Cache-Control', 'no-store');
        },
        limits.embedChecks,
      ],
      schema: {
        operationId: 'checkEmbedOrigin',
        summary: 'Check whether a merchant page’s origin may frame a consent',
        params: z.object({ consentId: ZIdentifier }),
        querystring: z.object({ clientId: ZIdentifier, origin: ZPrintable(300) }),
        response: jsonAnswers({ 200: ZEmbedCheckResponse }),
      },
    },
    async (request) => {
      const { clientId, origin } = request.query;
      // Registered origins are kept as origins (scheme, host, port); the browser's is one too.
      const origins = await embedOriginsOfConsent(db, request.params.consentId, clientId);
      return { success: true as const, allowed: origins.includes(origin) };
    },
  );
};
