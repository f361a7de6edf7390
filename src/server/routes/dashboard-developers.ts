import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZApiKeysResponse,
  ZCapabilitiesResponse,
  ZClientIdParams,
  ZDashboardOk,
  ZDashboardWebhookChangeRequest,
  ZDashboardWebhookCreatedResponse,
  ZDashboardWebhookCreateRequest,
  ZDashboardWebhookResponse,
  ZDashboardWebhooksResponse,
  ZDeadLettersResponse,
  ZDeliveriesQuery,
  ZDeliveriesResponse,
  ZDeliveryIdParams,
  ZKeyOriginsRequest,
  ZKeyOriginsResponse,
  ZKeyRotateRequest,
  ZKeyRotateResponse,
  ZRequestLogResponse,
  ZWebhookIdParams,
  ZWebhookSecretResponse,
} from '../../domain/schemas/dashboard';
import type { TRouteContext } from '../context';
import { actorOf } from '../services/dashboard/audit';
import {
  addWebhook,
  changeOrigins,
  changeWebhook,
  deleteWebhook,
  disableWebhook,
  enableWebhook,
  listDeadLetters,
  listDeliveries,
  listKeys,
  listRequests,
  listWebhooks,
  resendFromDashboard,
  rotateKey,
  rotateWebhook,
} from '../services/dashboard/developers';
import { staffGuard, staffOf } from './dashboard-guard';
import { ZIdempotencyHeaders } from './idempotency';
import { jsonAnswers } from './responses';
import type { TZodApp } from './zod-app';

type TStaffGuard = ReturnType<typeof staffGuard>;

/** The merchant whose dashboard the signed-in staff member works in. */
const merchantOf = (request: FastifyRequest) => staffOf(request).staff.merchantId;

/** The signed-in staff member as the audit log names them. */
const who = (request: FastifyRequest) => actorOf(staffOf(request));

/**
 * What this server can do for the merchant's consents: each capability and what serves it, or
 * off and why (docs/going-live.md). The developers who build on it read it here.
 */
function registerCapabilitiesRoute(
  r: TZodApp,
  { capabilities }: TRouteContext,
  guard: TStaffGuard,
) {
  r.get(
    '/api/dashboard/capabilities',
    {
      onRequest: guard({ action: 'keys.manage' }),
      schema: {
        operationId: 'dashboardCapabilities',
        summary: 'Each capability of this server and the adapter that serves it, or off and why',
        response: jsonAnswers({ 200: ZCapabilitiesResponse }),
      },
    },
    async () => ({ success: true as const, capabilities }),
  );
}

/** The merchant's API keys: the list, a new secret, the origins that may embed the page. */
function registerKeyRoutes(r: TZodApp, { db, clock }: TRouteContext, guard: TStaffGuard) {
  const keys = guard({ action: 'keys.manage' });
  r.get(
    '/api/dashboard/keys',
    {
      onRequest: keys,
      schema: {
        operationId: 'dashboardKeys',
        summary: 'The merchant’s API keys (clients) and their origins',
        response: jsonAnswers({ 200: ZApiKeysResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      keys: await listKeys(db, merchantOf(request), clock.now()),
    }),
  );

  r.post(
    '/api/dashboard/keys/:clientId/rotate',
    {
      onRequest: keys,
      schema: {
        operationId: 'dashboardRotateKey',
        summary: 'A new secret; the old one works for the grace hours',
        params: ZClientIdParams,
        body: ZKeyRotateRequest,
        response: jsonAnswers({ 200: ZKeyRotateResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await rotateKey(
        db,
        who(request),
        request.params.clientId,
        request.body.graceHours,
        clock.now(),
      )),
    }),
  );

  r.patch(
    '/api/dashboard/keys/:clientId/origins',
    {
      onRequest: keys,
      schema: {
        operationId: 'dashboardChangeOrigins',
        summary: 'Add or remove origins that may embed the consent page',
        params: ZClientIdParams,
        body: ZKeyOriginsRequest,
        response: jsonAnswers({ 200: ZKeyOriginsResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      allowedOrigins: await changeOrigins(
        db,
        who(request),
        request.params.clientId,
        request.body,
        clock.now(),
      ),
    }),
  );
}

/** The merchant's webhook endpoints: the list, and a new one with its secret. */
function registerWebhookEndpointRoutes(r: TZodApp, ctx: TRouteContext, guard: TStaffGuard) {
  const { db } = ctx;
  const webhooks = guard({ action: 'webhooks.manage' });
  r.get(
    '/api/dashboard/webhooks',
    {
      onRequest: webhooks,
      schema: {
        operationId: 'dashboardWebhooks',
        summary: 'The merchant’s webhook endpoints',
        response: jsonAnswers({ 200: ZDashboardWebhooksResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      webhooks: await listWebhooks(db, merchantOf(request)),
    }),
  );

  // The secret is in the answer: the service keeps a retry's answer with the secret sealed, so
  // this route takes its Idempotency-Key itself instead of the `idempotency` option's clear copy.
  r.post(
    '/api/dashboard/webhooks',
    {
      onRequest: webhooks,
      schema: {
        operationId: 'dashboardAddWebhook',
        summary: 'A webhook endpoint for one of the merchant’s API keys; its secret shown once',
        headers: ZIdempotencyHeaders,
        body: ZDashboardWebhookCreateRequest,
        response: jsonAnswers({ 201: ZDashboardWebhookCreatedResponse }),
      },
    },
    async (request, reply) => {
      const added = await addWebhook(ctx, who(request), {
        ...request.body,
        idempotencyKey: request.headers['idempotency-key'],
      });
      return reply.code(201).send({ success: true as const, ...added });
    },
  );
}

/** A webhook endpoint changed, disabled or deleted, each once per Idempotency-Key. */
function registerWebhookChangeRoutes(r: TZodApp, ctx: TRouteContext, guard: TStaffGuard) {
  const { db, clock } = ctx;
  const webhooks = guard({ action: 'webhooks.manage' });
  r.patch(
    '/api/dashboard/webhooks/:webhookId',
    {
      onRequest: webhooks,
      idempotency: {
        scope: (request) => `dashboard.webhook-change:${merchantOf(request)}`,
        request: (request) => ({ ...request.params, ...request.body }),
      },
      schema: {
        operationId: 'dashboardChangeWebhook',
        summary: 'Another URL or other events for a webhook endpoint',
        params: ZWebhookIdParams,
        body: ZDashboardWebhookChangeRequest,
        response: jsonAnswers({ 200: ZDashboardWebhookResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      webhook: await changeWebhook(ctx, who(request), request.params.webhookId, request.body),
    }),
  );

  r.post(
    '/api/dashboard/webhooks/:webhookId/disable',
    {
      onRequest: webhooks,
      idempotency: {
        scope: (request) => `dashboard.webhook-disable:${merchantOf(request)}`,
        request: (request) => request.params,
      },
      schema: {
        operationId: 'dashboardDisableWebhook',
        summary: 'Send nothing to a webhook until it is enabled again',
        params: ZWebhookIdParams,
        response: jsonAnswers({ 200: ZDashboardOk }),
      },
    },
    async (request) => {
      await disableWebhook(db, who(request), request.params.webhookId, clock.now());
      return { success: true as const };
    },
  );

  r.delete(
    '/api/dashboard/webhooks/:webhookId',
    {
      onRequest: webhooks,
      idempotency: {
        scope: (request) => `dashboard.webhook-delete:${merchantOf(request)}`,
        request: (request) => request.params,
      },
      schema: {
        operationId: 'dashboardDeleteWebhook',
        summary: 'Delete a webhook endpoint; what it was still owed is given up',
        params: ZWebhookIdParams,
        response: jsonAnswers({ 200: ZDashboardOk }),
      },
    },
    async (request) => {
      await deleteWebhook(db, who(request), request.params.webhookId, clock.now());
      return { success: true as const };
    },
  );
}

/** Webhook deliveries: the list, the dead-lettered ones, one sent again. */
function registerWebhookDeliveryRoutes(
  r: TZodApp,
  { db, clock, jobs }: TRouteContext,
  guard: TStaffGuard,
) {
  const webhooks = guard({ action: 'webhooks.manage' });
  r.get(
    '/api/dashboard/webhooks/deliveries',
    {
      onRequest: webhooks,
      schema: {
        operationId: 'dashboardDeliveries',
        summary: 'Webhook deliveries, newest first: request, answer, time',
        querystring: ZDeliveriesQuery,
        response: jsonAnswers({ 200: ZDeliveriesResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      deliveries: await listDeliveries(db, merchantOf(request), request.query.webhookId),
    }),
  );

  r.get(
    '/api/dashboard/webhooks/dead-letters',
    {
      onRequest: webhooks,
      schema: {
        operationId: 'dashboardDeadLetters',
        summary: 'Deliveries whose job failed every retry (dead-lettered), newest first',
        response: jsonAnswers({ 200: ZDeadLettersResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      deadLetters: await listDeadLetters(db, merchantOf(request)),
    }),
  );

  r.post(
    '/api/dashboard/webhooks/deliveries/:deliveryId/resend',
    {
      onRequest: webhooks,
      schema: {
        operationId: 'dashboardResendDelivery',
        summary: 'Send a webhook delivery again now',
        params: ZDeliveryIdParams,
        response: jsonAnswers({ 200: ZDashboardOk }),
      },
    },
    async (request) => {
      await resendFromDashboard({ db, jobs }, who(request), request.params.deliveryId, clock.now());
      return { success: true as const };
    },
  );
}

/** A webhook endpoint enabled again after a 410, or given a new signing secret. */
function registerWebhookRenewalRoutes(
  r: TZodApp,
  { db, clock }: TRouteContext,
  guard: TStaffGuard,
) {
  const webhooks = guard({ action: 'webhooks.manage' });
  r.post(
    '/api/dashboard/webhooks/:webhookId/enable',
    {
      onRequest: webhooks,
      idempotency: {
        scope: (request) => `dashboard.webhook-enable:${merchantOf(request)}`,
        request: (request) => request.params,
      },
      schema: {
        operationId: 'dashboardEnableWebhook',
        summary: 'Send to a webhook again after a 410 disabled it',
        params: ZWebhookIdParams,
        response: jsonAnswers({ 200: ZDashboardOk }),
      },
    },
    async (request) => {
      await enableWebhook(db, who(request), request.params.webhookId, clock.now());
      return { success: true as const };
    },
  );

  // Idempotent by the rotation's own key (rotateWebhookSecret), which keeps its answer's secret
  // sealed: the routes' `idempotency` option would keep the answer, secret and all, in clear.
  // Rotated twice, the secret the merchant's receiver holds would stop signing at once.
  r.post(
    '/api/dashboard/webhooks/:webhookId/rotate-secret',
    {
      onRequest: webhooks,
      schema: {
        operationId: 'dashboardRotateWebhookSecret',
        summary: 'A new signing secret; the previous one signs too for a day',
        params: ZWebhookIdParams,
        headers: ZIdempotencyHeaders,
        response: jsonAnswers({ 200: ZWebhookSecretResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await rotateWebhook(db, who(request), request.params.webhookId, {
        idempotencyKey: request.headers['idempotency-key'],
        now: clock.now(),
      })),
    }),
  );
}

/** The merchant API's request log. */
function registerRequestLogRoute(r: TZodApp, { db, clock }: TRouteContext, guard: TStaffGuard) {
  r.get(
    '/api/dashboard/requests',
    {
      onRequest: guard({ action: 'logs.read' }),
      schema: {
        operationId: 'dashboardRequestLog',
        summary: 'The merchant API’s requests of the last 7 days',
        response: jsonAnswers({ 200: ZRequestLogResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      requests: await listRequests(db, merchantOf(request), clock.now()),
    }),
  );
}

/** API keys, webhooks and their deliveries, the request log (docs/dashboard.md "Developers"). */
export const dashboardDeveloperRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = staffGuard(app, ctx);
  registerCapabilitiesRoute(r, ctx, guard);
  registerKeyRoutes(r, ctx, guard);
  registerWebhookEndpointRoutes(r, ctx, guard);
  registerWebhookChangeRoutes(r, ctx, guard);
  registerWebhookDeliveryRoutes(r, ctx, guard);
  registerWebhookRenewalRoutes(r, ctx, guard);
  registerRequestLogRoute(r, ctx, guard);
};
