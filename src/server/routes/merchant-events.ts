import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZMerchantEventsQuery, ZMerchantEventsResponse } from '../../domain/schemas/webhooks';
import type { TRouteContext } from '../context';
import { listMerchantEvents } from '../services/merchants/merchant-events';
import { merchantOf, requireMerchant } from './merchant-guard';
import { jsonAnswers } from './responses';

/** What the client's webhooks carried, for a merchant catching up (docs/webhooks.md). */
export const merchantEventRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v1/events',
    {
      preValidation: requireMerchant(ctx),
      schema: {
        operationId: 'listEvents',
        summary: 'List the events of the last 30 days, newest first',
        querystring: ZMerchantEventsQuery,
        response: jsonAnswers({ 200: ZMerchantEventsResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await listMerchantEvents(
        ctx.db,
        merchantOf(request).clientId,
        request.query,
        ctx.clock.now(),
      )),
    }),
  );
};
