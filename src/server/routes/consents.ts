import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZConsentReadResponse } from '../../domain/schemas/consent';
import { ZIdentifier, ZPrintable } from '../../domain/schemas/fields';
import type { TRouteContext } from '../context';
import { AppError } from '../services/app-error';
import type { TConsentReads } from '../services/consent-reads';
import { readableByClient } from '../services/consents';
import { jsonAnswers } from './responses';

/** The page's read of a consent (spec §7 GET /api/consent/{id}?clientId=). */
export const consentRoutes: FastifyPluginAsync<TRouteContext & { reads: TConsentReads }> = async (
  app,
  { reads, clock },
) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/consent/:consentId',
    {
      schema: {
        params: z.object({ consentId: ZIdentifier }),
        querystring: z.object({ clientId: ZPrintable(100).optional() }),
        response: jsonAnswers({ 200: ZConsentReadResponse }),
      },
    },
    async (request) => {
      const clientId = request.query.clientId?.trim();
      if (!clientId) throw new AppError('MISSING_CLIENT_ID');
      // With the consent come the origins the page may post its data to when embedded
      // (never '*'): those of the client that owns it.
      const { consent, embedOrigins } = readableByClient(
        await reads.load(request.params.consentId),
        clientId,
        clock.now(),
      );
      return { success: true as const, consent, embedOrigins };
    },
  );
};
