import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZFavoritesAndRecentsQuery,
  ZFavoritesAndRecentsResponse,
  ZPaymentHistoryResponse,
} from '../../domain/schemas/payment';
import type { TRouteContext } from '../context';
import { favoritesAndRecents, paymentHistory } from '../services/payments/payment-history';
import { payerOf, requirePayer } from './payer-guard';
import { jsonAnswers } from './responses';

/** A signed-in payer's payments and the merchants they paid (spec §7). */
export const paymentHistoryRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const onRequest = requirePayer(ctx, { identifyTo: 'ignore' });

  api.get(
    '/api/payments/history',
    {
      onRequest,
      schema: {
        operationId: 'getPaymentHistory',
        summary: 'List the signed-in payer’s payments',
        response: jsonAnswers({ 200: ZPaymentHistoryResponse }),
      },
    },
    async (request) => paymentHistory(ctx.db, payerOf(request).payerId),
  );

  api.get(
    '/api/payments/favorites-and-recents',
    {
      onRequest,
      schema: {
        operationId: 'listFavoritesAndRecents',
        summary: 'List whom the payer paid most and last',
        querystring: ZFavoritesAndRecentsQuery,
        response: jsonAnswers({ 200: ZFavoritesAndRecentsResponse }),
      },
    },
    async (request) => favoritesAndRecents(ctx.db, payerOf(request).payerId, request.query.limit),
  );
};
