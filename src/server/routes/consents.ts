import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TDb } from '../db/database';
import { AppError } from '../services/app-error';
import { readConsentForClient } from '../services/consents';
import { allowedOriginsOf } from '../services/merchant-clients';

/** The page's read of a consent (spec §7 GET /api/consent/{id}?clientId=). */
export const consentRoutes: FastifyPluginAsync<{ db: TDb }> = async (app, { db }) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/consent/:consentId',
    {
      schema: {
        params: z.object({ consentId: z.string().min(1).max(100) }),
        querystring: z.object({ clientId: z.string().trim().optional() }),
      },
    },
    async (request) => {
      const { clientId } = request.query;
      if (!clientId) throw new AppError('MISSING_CLIENT_ID');
      const consent = await readConsentForClient(db, request.params.consentId, clientId);
      // Origins the page may post consent data to when embedded (never '*').
      const embedOrigins = await allowedOriginsOf(db, clientId);
      return { success: true as const, consent, embedOrigins };
    },
  );
};
