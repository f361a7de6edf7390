import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZPasskeyRegisterRequest,
  ZPasskeyRegisterResponse,
  ZWebAuthnOptionsResponse,
} from '../../domain/schemas/auth';
import type { TRouteContext } from '../context';
import { registerPasskey, registrationOptions } from '../services/identity/passkeys';
import { payerOf, requirePayer } from './payer-guard';
import { jsonAnswers } from './responses';

/** Passkeys of the signed-in payer: one more on this device (a payer may hold several). */
export const authPasskeyRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const { db, config, clock, limits } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = requirePayer(ctx, { identifyTo: 'ignore' });

  r.post(
    '/api/auth/passkeys/registration-options',
    {
      onRequest: [limits.challenges, guard],
      schema: { response: jsonAnswers({ 200: ZWebAuthnOptionsResponse }) },
    },
    async (request) => ({
      success: true as const,
      options: await registrationOptions(db, config, payerOf(request).payerId, clock.now()),
    }),
  );

  r.post(
    '/api/auth/passkeys',
    {
      onRequest: guard,
      schema: {
        body: ZPasskeyRegisterRequest,
        response: jsonAnswers({ 201: ZPasskeyRegisterResponse }),
      },
    },
    async (request, reply) => {
      const saved = await registerPasskey(
        db,
        config,
        payerOf(request).payerId,
        request.body.response,
        clock.now(),
      );
      return reply.code(201).send({ success: true as const, ...saved });
    },
  );
};
