import type { FastifyPluginAsync, preValidationAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZCreateWebhookRequest,
  ZCreateWebhookResponse,
  ZDeliveryIdParams,
  ZListDeliveriesQuery,
  ZListDeliveriesResponse,
  ZListWebhooksResponse,
  ZRotateWebhookSecretResponse,
  ZWebhookIdParams,
  ZWebhookOkResponse,
} from '../../domain/schemas/webhooks';
import type { TRouteContext } from '../context';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  enableWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
} from '../services/merchants/webhook-endpoints';
import { listDeliveries, resendDelivery } from '../services/merchants/webhook-deliveries';
import { ZIdempotencyHeaders } from './idempotency';
import { merchantOf, requireMerchant } from './merchant-guard';
import { jsonAnswers } from './responses';
import type { TZodApp } from './zod-app';

/** A webhook endpoint registered, listed or deleted. */
function registerWebhookEndpointRoutes(
  api: TZodApp,
  ctx: TRouteContext,
  preValidation: preValidationAsyncHookHandler,
) {
  api.post(
    '/api/v1/webhooks',
    {
      preValidation,
      schema: {
        operationId: 'createWebhook',
        summary: 'Register a webhook endpoint',
        body: ZCreateWebhookRequest,
        response: jsonAnswers({ 201: ZCreateWebhookResponse }),
      },
    },
    async (request, reply) => {
      const created = await createWebhookEndpoint(
        ctx,
        merchantOf(request).clientId,
        request.body.url,
      );
      return reply.code(201).send({ success: true as const, ...created });
    },
  );

  api.get(
    '/api/v1/webhooks',
    {
      preValidation,
      schema: {
        operationId: 'listWebhooks',
        summary: 'List the client’s webhook endpoints',
        response: jsonAnswers({ 200: ZListWebhooksResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      webhooks: await listWebhookEndpoints(ctx.db, merchantOf(request).clientId),
    }),
  );

  api.delete(
    '/api/v1/webhooks/:webhookId',
    {
      preValidation,
      schema: {
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook endpoint',
        params: ZWebhookIdParams,
        response: jsonAnswers({ 200: ZWebhookOkResponse }),
      },
    },
    async (request) => {
      await deleteWebhookEndpoint(
        ctx.db,
        merchantOf(request).clientId,
        request.params.webhookId,
        ctx.clock.now(),
      );
      return { success: true as const };
    },
  );
}

/** A webhook endpoint's secret rotated, or the endpoint enabled again after a 410. */
function registerWebhookRenewalRoutes(
  api: TZodApp,
  ctx: TRouteContext,
  preValidation: preValidationAsyncHookHandler,
) {
  // A new signing secret; the previous one keeps signing for WEBHOOK_SECRET_OVERLAP_MS.
  api.post(
    '/api/v1/webhooks/:webhookId/rotate-secret',
    {
      preValidation,
      schema: {
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate a webhook endpoint’s signing secret',
        params: ZWebhookIdParams,
        headers: ZIdempotencyHeaders,
        // 201: rotated; 200: the first answer to a retry with the same Idempotency-Key.
        response: jsonAnswers({
          201: ZRotateWebhookSecretResponse,
          200: ZRotateWebhookSecretResponse,
        }),
      },
    },
    async (request, reply) => {
      const { rotated, replayed } = await rotateWebhookSecret(ctx.db, {
        clientId: merchantOf(request).clientId,
        webhookId: request.params.webhookId,
        idempotencyKey: request.headers['idempotency-key'],
        now: ctx.clock.now(),
      });
      return reply.code(replayed ? 200 : 201).send({ success: true as const, ...rotated });
    },
  );

  // Sends to an endpoint a 410 Gone disabled; its failed deliveries can then be resent.
  api.post(
    '/api/v1/webhooks/:webhookId/enable',
    {
      preValidation,
      schema: {
        operationId: 'enableWebhook',
        summary: 'Enable a webhook endpoint that a 410 Gone disabled',
        params: ZWebhookIdParams,
        response: jsonAnswers({ 200: ZWebhookOkResponse }),
      },
    },
    async (request) => {
      await enableWebhookEndpoint(ctx.db, merchantOf(request).clientId, request.params.webhookId);
      return { success: true as const };
    },
  );
}

/** The client's webhook deliveries, and one sent again. */
function registerWebhookDeliveryRoutes(
  api: TZodApp,
  ctx: TRouteContext,
  preValidation: preValidationAsyncHookHandler,
) {
  api.get(
    '/api/v1/webhooks/deliveries',
    {
      preValidation,
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: 'List the client’s webhook deliveries',
        querystring: ZListDeliveriesQuery,
        response: jsonAnswers({ 200: ZListDeliveriesResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      deliveries: await listDeliveries(ctx.db, merchantOf(request).clientId, request.query),
    }),
  );

  api.post(
    '/api/v1/webhooks/deliveries/:deliveryId/resend',
    {
      preValidation,
      schema: {
        operationId: 'resendWebhookDelivery',
        summary: 'Send a webhook delivery again',
        params: ZDeliveryIdParams,
        response: jsonAnswers({ 200: ZWebhookOkResponse }),
      },
    },
    async (request) => {
      await resendDelivery(
        ctx,
        merchantOf(request).clientId,
        request.params.deliveryId,
        ctx.clock.now(),
      );
      return { success: true as const };
    },
  );
}

/** A merchant's webhooks and their deliveries (docs/webhooks.md), with client credentials. */
export const merchantWebhookRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const preValidation = requireMerchant(ctx);
  registerWebhookEndpointRoutes(api, ctx, preValidation);
  registerWebhookRenewalRoutes(api, ctx, preValidation);
  registerWebhookDeliveryRoutes(api, ctx, preValidation);
};
