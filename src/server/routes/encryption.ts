import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZEncryptionPublicKeyResponse } from '../../domain/schemas/card';
import type { TRouteContext } from '../context';
import { currentCardKey } from '../services/payments/card-encryption-keys';
import { jsonAnswers } from './responses';

/**
 * The key the page encrypts card fields for (spec §7 GET /api/encryption/public-key). Public:
 * a payer paying without sign-in encrypts too (spec §6). Not cached (the app's default for
 * /api): the key is replaced weekly, and a stale one is refused a day after.
 */
export const encryptionRoutes: FastifyPluginAsync<TRouteContext> = async (app, { db, clock }) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/encryption/public-key',
    {
      schema: {
        operationId: 'getEncryptionPublicKey',
        summary: 'Get the key the page encrypts card fields with',
        response: jsonAnswers({ 200: ZEncryptionPublicKeyResponse }),
      },
    },
    async () => currentCardKey(db, clock),
  );
};
