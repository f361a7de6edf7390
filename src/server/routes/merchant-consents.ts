import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZCreateConsentRequest } from '../../domain/schemas/merchant-api';
import type { TConfig } from '../config';
import type { TDb } from '../db/database';
import { AppError } from '../services/app-error';
import { createConsent } from '../services/consents';
import { authenticateClient } from '../services/merchant-clients';
import { consentPageUrl } from '../services/page-urls';

/** Reads HTTP Basic `clientId:secret`; anything else is the same 401. */
function basicCredentials(request: FastifyRequest): { clientId: string; secret: string } {
  const header = request.headers.authorization ?? '';
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header);
  const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw new AppError('INVALID_CLIENT_CREDENTIALS');
  return { clientId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** Server-to-server API of merchants (authenticated with their client credentials). */
export const merchantConsentRoutes: FastifyPluginAsync<{ db: TDb; config: TConfig }> = async (
  app,
  { db, config },
) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v1/consents',
    {
      // Credentials are checked before the body, so a stranger learns nothing about the schema.
      preValidation: async (request) => {
        const { clientId, secret } = basicCredentials(request);
        request.merchantClient = await authenticateClient(db, clientId, secret);
      },
      schema: {
        body: ZCreateConsentRequest,
        headers: z.object({ 'idempotency-key': z.string().min(1).max(200).optional() }),
      },
    },
    async (request, reply) => {
      const client = request.merchantClient;
      if (!client) throw new AppError('INVALID_CLIENT_CREDENTIALS');
      const result = await createConsent(db, request.body, {
        ...client,
        idempotencyKey: request.headers['idempotency-key'],
      });
      return reply.code(result.created ? 201 : 200).send({
        success: true,
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
