import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZClientIdParams } from '../../domain/schemas/merchant-client';
import { ZMerchantEventsQuery, ZMerchantEventsResponse } from '../../domain/schemas/webhooks';
import { ZTestEventRequest, ZTestEventResponse } from '../../domain/test-events';
import type { TRouteContext } from '../context';
import { fireTestEvent } from '../services/merchants/fire-test-event';
import { readClient } from '../services/merchants/merchant-clients';
import { listMerchantEvents } from '../services/merchants/merchant-events';
import { requireOperator } from './operator-clients';
import { jsonAnswers } from './responses';

/*
 * A client's events for the operator (docs/webhooks.md, "Events on your machine"): what
 * `npm run client:listen` polls and forwards, and the test events `npm run client:trigger`
 * fires, on a server whose embedded database no second process may open. The operator's token
 * guards them as it guards operator-clients.ts.
 */
export const operatorEventRoutes: FastifyPluginAsync<
  TRouteContext & { operatorToken: string | undefined }
> = async (app, ctx) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const preValidation = requireOperator(ctx, ctx.operatorToken);

  // As GET /api/v1/events answers the client itself.
  api.get(
    '/api/operator/clients/:clientId/events',
    {
      preValidation,
      schema: {
        operationId: 'listMerchantClientEvents',
        summary: 'List a merchant client’s events of the last 30 days, newest first',
        params: ZClientIdParams,
        querystring: ZMerchantEventsQuery,
        response: jsonAnswers({ 200: ZMerchantEventsResponse }),
      },
    },
    async (request) => {
      const now = ctx.clock.now();
      await readClient(ctx.db, request.params.clientId, now);
      return {
        success: true as const,
        ...(await listMerchantEvents(ctx.db, request.params.clientId, request.query, now)),
      };
    },
  );

  // Sandbox only, as the sandbox's own routes are (context.ts: `sandbox` is null otherwise).
  api.post(
    '/api/operator/clients/:clientId/events',
    {
      preValidation,
      schema: {
        operationId: 'createMerchantClientTestEvent',
        summary: 'Fire a test event at a merchant client’s webhooks (sandbox servers only)',
        params: ZClientIdParams,
        body: ZTestEventRequest,
        response: jsonAnswers({ 201: ZTestEventResponse }),
      },
      idempotency: {
        scope: (request) => `operator.test-events:${request.params.clientId}`,
      },
    },
    async (request, reply) => {
      const event = await fireTestEvent(ctx, {
        clientId: request.params.clientId,
        type: request.body.type,
        sandbox: ctx.sandbox !== null,
        now: ctx.clock.now(),
      });
      reply.code(201);
      return { success: true as const, event };
    },
  );
};
