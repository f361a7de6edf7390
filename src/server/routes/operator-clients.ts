import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, preValidationAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZChangeOriginsRequest,
  ZChangeOriginsResponse,
  ZClientIdParams,
  ZClientResponse,
  ZOperatorCreateClientRequest,
  ZOperatorCreateClientResponse,
  ZOperatorCreateWebhookRequest,
  ZOperatorCreateWebhookResponse,
  ZOperatorRotateWebhookSecretResponse,
  ZOperatorWebhookParams,
  SECRET_GRACE_DEFAULT_HOURS,
  ZRotateSecretRequest,
  ZRotateSecretResponse,
} from '../../domain/schemas/merchant-client';
import { presentsScheme } from '../auth-challenges';
import type { TRouteContext } from '../context';
import { AppError } from '../app-error';
import {
  changeClientOrigins,
  createMerchantClient,
  readClient,
  rotateClientSecret,
} from '../services/merchants/merchant-clients';
import {
  createWebhookEndpoint,
  rotateWebhookSecret,
} from '../services/merchants/webhook-endpoints';
import { markGuard } from './guard-kinds';
import { jsonAnswers } from './responses';
import type { TZodApp } from './zod-app';

/*
 * The operator's calls (docs/merchant-clients.md): what `npm run client:*` asks of a running
 * server whose embedded database no second process may open. They are authenticated by the
 * bearer token this process made at start and wrote, readable by its user only, into its data
 * directory; a process started without one refuses every call. Wrong tokens count against the
 * address like wrong client credentials; a call with no bearer token at all counts for nothing.
 * Every 401 carries the Bearer challenge (http-errors.ts).
 */

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

export function requireOperator(
  ctx: Pick<TRouteContext, 'limits'>,
  token: string | undefined,
): preValidationAsyncHookHandler {
  const expected = token ? digest(token) : null;
  return markGuard('operatorBearer', async (request, reply) => {
    await ctx.limits.merchantAuth.refuseBlockedAddress(request, reply);
    const presented = /^Bearer\s+(\S{1,200})$/i.exec(request.headers.authorization ?? '')?.[1];
    if (expected && presented && timingSafeEqual(digest(presented), expected)) return;
    if (presentsScheme(request, 'Bearer')) {
      await ctx.limits.merchantAuth.recordFailure(request, reply, null);
    }
    throw new AppError('INVALID_ADMIN_TOKEN');
  });
}

/** A merchant's client created, and read. */
function registerClientRoutes(
  api: TZodApp,
  ctx: TRouteContext,
  preValidation: preValidationAsyncHookHandler,
) {
  api.post(
    '/api/operator/clients',
    {
      preValidation,
      schema: {
        operationId: 'createMerchantClient',
        summary: 'Create a merchant’s API client',
        body: ZOperatorCreateClientRequest,
        response: jsonAnswers({ 201: ZOperatorCreateClientResponse }),
      },
    },
    async (request, reply) => {
      const { name, origins, image, primaryColour } = request.body;
      const created = await createMerchantClient(ctx.db, {
        name,
        origins,
        image,
        ...(primaryColour ? { colours: { primaryColour } } : {}),
      });
      return reply.code(201).send({ success: true as const, ...created });
    },
  );

  api.get(
    '/api/operator/clients/:clientId',
    {
      preValidation,
      schema: {
        operationId: 'getMerchantClient',
        summary: 'Read a merchant’s API client',
        params: ZClientIdParams,
        response: jsonAnswers({ 200: ZClientResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await readClient(ctx.db, request.params.clientId, ctx.clock.now())),
    }),
  );
}

/** A client's secret rotated, and the origins that may embed its page replaced. */
function registerClientChangeRoutes(
  api: TZodApp,
  ctx: TRouteContext,
  preValidation: preValidationAsyncHookHandler,
) {
  api.post(
    '/api/operator/clients/:clientId/secret',
    {
      preValidation,
      schema: {
        operationId: 'rotateMerchantClientSecret',
        summary: 'Rotate a merchant client’s secret',
        params: ZClientIdParams,
        body: z.nullish(ZRotateSecretRequest),
        response: jsonAnswers({ 201: ZRotateSecretResponse }),
      },
    },
    async (request, reply) => {
      const rotated = await rotateClientSecret(ctx.db, {
        clientId: request.params.clientId,
        presented: 'operator',
        graceHours: request.body?.graceHours ?? SECRET_GRACE_DEFAULT_HOURS,
        now: ctx.clock.now(),
      });
      return reply.code(201).send({ success: true as const, ...rotated });
    },
  );

  api.patch(
    '/api/operator/clients/:clientId/origins',
    {
      preValidation,
      schema: {
        operationId: 'updateMerchantClientOrigins',
        summary: 'Replace a merchant client’s embed origins',
        params: ZClientIdParams,
        body: ZChangeOriginsRequest,
        response: jsonAnswers({ 200: ZChangeOriginsResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      allowedOrigins: await changeClientOrigins(ctx.db, request.params.clientId, request.body),
    }),
  );
}

/** A client's webhooks: one registered, and its secret rotated. */
function registerClientWebhookRoutes(
  api: TZodApp,
  ctx: TRouteContext,
  preValidation: preValidationAsyncHookHandler,
) {
  api.post(
    '/api/operator/clients/:clientId/webhooks',
    {
      preValidation,
      schema: {
        operationId: 'createMerchantClientWebhook',
        summary: 'Register a webhook endpoint for a merchant’s client',
        params: ZClientIdParams,
        body: ZOperatorCreateWebhookRequest,
        response: jsonAnswers({ 201: ZOperatorCreateWebhookResponse }),
      },
    },
    async (request, reply) => {
      await readClient(ctx.db, request.params.clientId, ctx.clock.now());
      const created = await createWebhookEndpoint(ctx, request.params.clientId, request.body.url);
      return reply.code(201).send({ success: true as const, ...created });
    },
  );

  // A client's webhook secret, rotated as POST /api/v1/webhooks/{id}/rotate-secret does it.
  api.post(
    '/api/operator/clients/:clientId/webhooks/:webhookId/rotate-secret',
    {
      preValidation,
      schema: {
        operationId: 'rotateMerchantClientWebhookSecret',
        summary: 'Rotate the signing secret of a merchant client’s webhook endpoint',
        params: ZOperatorWebhookParams,
        response: jsonAnswers({ 201: ZOperatorRotateWebhookSecretResponse }),
      },
    },
    async (request, reply) => {
      const { rotated } = await rotateWebhookSecret(ctx.db, {
        clientId: request.params.clientId,
        webhookId: request.params.webhookId,
        idempotencyKey: undefined,
        now: ctx.clock.now(),
      });
      return reply.code(201).send({ success: true as const, ...rotated });
    },
  );
}

export const operatorClientRoutes: FastifyPluginAsync<
  TRouteContext & { operatorToken: string | undefined }
> = async (app, ctx) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const preValidation = requireOperator(ctx, ctx.operatorToken);
  registerClientRoutes(api, ctx, preValidation);
  registerClientChangeRoutes(api, ctx, preValidation);
  registerClientWebhookRoutes(api, ctx, preValidation);
};
