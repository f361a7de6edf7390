import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZChangeOriginsRequest,
  ZChangeOriginsResponse,
  ZClientResponse,
  SECRET_GRACE_DEFAULT_HOURS,
  ZRotateSecretRequest,
  ZRotateSecretResponse,
} from '../../domain/schemas/merchant-client';
import type { TRouteContext } from '../context';
import {
  changeClientOrigins,
  readClient,
  rotateClientSecret,
} from '../services/merchants/merchant-clients';
import { merchantOf, presentedSecret, requireMerchant } from './merchant-guard';
import { jsonAnswers } from './responses';

/** The merchant's own client, with its credentials (docs/merchant-clients.md). */
export const merchantClientRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const preValidation = requireMerchant(ctx);

  api.get(
    '/api/v1/client',
    {
      preValidation,
      schema: {
        operationId: 'getClient',
        summary: 'Read the API client making the call',
        response: jsonAnswers({ 200: ZClientResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await readClient(ctx.db, merchantOf(request).clientId, ctx.clock.now())),
    }),
  );

  // A new secret; the one this call presented stays valid for the grace period.
  api.post(
    '/api/v1/client/secret',
    {
      preValidation,
      schema: {
        operationId: 'rotateClientSecret',
        summary: 'Rotate the client’s secret',
        body: z.nullish(ZRotateSecretRequest),
        response: jsonAnswers({ 201: ZRotateSecretResponse }),
      },
    },
    async (request, reply) => {
      const client = merchantOf(request);
      const rotated = await rotateClientSecret(ctx.db, {
        clientId: client.clientId,
        presented: client.secret,
        presentedSecret: presentedSecret(request),
        graceHours: request.body?.graceHours ?? SECRET_GRACE_DEFAULT_HOURS,
        now: ctx.clock.now(),
      });
      return reply.code(201).send({ success: true as const, ...rotated });
    },
  );

  api.patch(
    '/api/v1/client/origins',
    {
      preValidation,
      schema: {
        operationId: 'updateClientOrigins',
        summary: 'Replace the origins that may frame the client’s consents',
        body: ZChangeOriginsRequest,
        response: jsonAnswers({ 200: ZChangeOriginsResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      allowedOrigins: await changeClientOrigins(ctx.db, merchantOf(request).clientId, request.body),
    }),
  );
};
