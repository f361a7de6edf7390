import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZPasskeyRegisterRequest } from '../../domain/schemas/auth';
import type { TConfig } from '../config';
import type { TDb } from '../db/database';
import { registerPasskey, registrationOptions } from '../services/passkeys';
import { payerOf, requirePayer } from './payer-guard';

/** Passkeys of the signed-in payer: one more on this device (a payer may hold several). */
export const authPasskeyRoutes: FastifyPluginAsync<{ db: TDb; config: TConfig }> = async (
  app,
  deps,
) => {
  const { db, config } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = requirePayer(deps, { identifyTo: 'ignore' });

  r.post('/api/auth/passkeys/registration-options', { onRequest: guard }, async (request) => ({
    success: true as const,
    options: await registrationOptions(db, config, payerOf(request).payerId),
  }));

  r.post(
    '/api/auth/passkeys',
    { onRequest: guard, schema: { body: ZPasskeyRegisterRequest } },
    async (request, reply) => {
      const saved = await registerPasskey(
        db,
        config,
        payerOf(request).payerId,
        request.body.response,
      );
      return reply.code(201).send({ success: true as const, ...saved });
    },
  );
};
