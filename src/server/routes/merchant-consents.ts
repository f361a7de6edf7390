import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZCreateConsentRequest,
  ZCreateConsentResponse,
  ZIdempotencyKey,
} from '../../domain/schemas/merchant-api';
import type { TRouteContext } from '../context';
import { AppError } from '../services/app-error';
import { createConsent } from '../services/consents';
import { authenticateClient } from '../services/merchant-clients';
import { consentPageUrl } from '../services/page-urls';
import { jsonAnswers } from './responses';

/** A client id is visible ASCII; anything else cannot be one, and is the same 401. */
const CLIENT_ID = /^[\x21-\x7e]{1,100}$/;

/** Reads HTTP Basic `clientId:secret`; anything else is the same 401. */
function basicCredentials(request: FastifyRequest): { clientId: string; secret: string } {
  const header = request.headers.authorization ?? '';
  const match = /^Basic\s+([A-Za-z0-9+/=]{1,1024})$/i.exec(header);
  const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const clientId = decoded.slice(0, Math.max(colon, 0));
  if (colon <= 0 || !CLIENT_ID.test(clientId)) throw new AppError('INVALID_CLIENT_CREDENTIALS');
  return { clientId, secret: decoded.slice(colon + 1) };
}

/** Server-to-server API of merchants (authenticated with their client credentials). */
export const merchantConsentRoutes: FastifyPluginAsync<TRouteContext> = async (
  app,
  { db, config, clock, events, limits },
) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v1/consents',
    {
      // Credentials are checked before the body, so a stranger learns nothing about the schema.
      preValidation: async (request, reply) => {
        await limits.merchantAuth.refuseBlockedAddress(request, reply);
        let clientId: string | null = null;
        try {
          const credentials = basicCredentials(request);
          clientId = credentials.clientId;
          request.merchantClient = await authenticateClient(db, clientId, credentials.secret);
        } catch (error) {
          if (error instanceof AppError)
            await limits.merchantAuth.recordFailure(request, reply, clientId);
          throw error;
        }
      },
      schema: {
        body: ZCreateConsentRequest,
        headers: z.object({ 'idempotency-key': ZIdempotencyKey.optional() }),
        // 201: created; 200: the first answer to a retry with the same Idempotency-Key.
        response: jsonAnswers({ 200: ZCreateConsentResponse, 201: ZCreateConsentResponse }),
      },
    },
    async (request, reply) => {
      const client = request.merchantClient;
      if (!client) throw new AppError('INVALID_CLIENT_CREDENTIALS');
      const result = await createConsent(db, request.body, {
        ...client,
        idempotencyKey: request.headers['idempotency-key'],
        now: clock.now(),
        events,
      });
      return reply.code(result.created ? 201 : 200).send({
        success: true as const,
        consentId: result.consentId,
        url: consentPageUrl(config.publicUrl, result.consentId, client.clientId),
        expiresAt: result.expiresAt,
      });
    },
  );
};

declare module 'fastify' {
  interface FastifyRequest {
    merchantClient?: { clientId: string; merchantId: string };
  }
}
