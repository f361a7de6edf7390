import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZConsentReadResponse, type TConsentReadResponse } from '../../domain/schemas/consent';
import { isAvailableAt } from '../../domain/consent-availability';
import { ZIdentifier, ZPrintable } from '../../domain/schemas/fields';
import type { TRouteContext } from '../context';
import { AppError } from '../app-error';
import { readableByClient } from '../services/consents/consents';
import type { TConsentReads } from '../services/consents/consent-reads';
import { jsonAnswers } from './responses';

/**
 * The consent as its client's page reads it: the answer's JSON, `{"success":true,"consent":…,
 * "embedOrigins":[…]}` (consent-read-answer.ts). Unknown, expired or uncollectable consents are
 * not found; another client's is forbidden (AppError). The read of the page's call and of its
 * server-drawn first screen (routes/pages.ts).
 */
export async function consentReadFor(
  reads: TConsentReads,
  consentId: string,
  clientId: string,
  now: Date,
): Promise<string> {
  const answer = readableByClient(await reads.load(consentId), clientId, (a) =>
    isAvailableAt(a, now),
  );
  return answer.body;
}

/** The page's read of a consent (spec §7 GET /api/consent/{id}?clientId=). */
export const consentRoutes: FastifyPluginAsync<TRouteContext & { reads: TConsentReads }> = async (
  app,
  { reads, clock },
) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/consent/:consentId',
    {
      schema: {
        operationId: 'getConsentForPage',
        summary: 'Read a consent as its payment page shows it',
        params: z.object({ consentId: ZIdentifier }),
        querystring: z.object({ clientId: z.optional(ZPrintable(100)) }),
        response: jsonAnswers({ 200: ZConsentReadResponse }),
      },
    },
    async (request, reply) => {
      const clientId = request.query.clientId?.trim();
      if (!clientId) throw new AppError('MISSING_CLIENT_ID');
      // The consent with the origins the page may post its data to when embedded (never '*'):
      // those of the client that owns it. The database wrote the JSON (consent-read-answer.ts);
      // a string sent as application/json goes out as it is, past the schema's serialiser.
      const body = await consentReadFor(reads, request.params.consentId, clientId, clock.now());
      void reply.type('application/json; charset=utf-8');
      return body as unknown as TConsentReadResponse;
    },
  );
};
