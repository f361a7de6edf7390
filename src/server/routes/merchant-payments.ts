import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZCollectRequest,
  ZCollectResponse,
  ZMerchantPaymentResponse,
  ZPaymentIdParams,
} from '../../domain/schemas/collections';
import { ZIdempotencyKey } from '../../domain/schemas/merchant-api';
import type { TRouteContext } from '../context';
import { BANK_CALL_RETRY_WAIT_MS, runIdempotentCall } from '../services/idempotency';
import { collectOnRequest, readMerchantPayment } from '../services/merchant-payments';
import { merchantOf, requireMerchant } from './merchant-guard';
import { jsonAnswers } from './responses';

/**
 * The merchant's payments (docs/payments.md "Collecting future payments"), with client
 * credentials: collect a variable or 'As needed' future payment now, and read a payment with
 * its collections.
 */
export const merchantPaymentRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const preValidation = requireMerchant(ctx);

  api.post(
    '/api/v1/payments/:paymentId/collect',
    {
      preValidation,
      schema: {
        params: ZPaymentIdParams,
        body: ZCollectRequest,
        headers: z.object({ 'idempotency-key': ZIdempotencyKey.optional() }),
        // 201: collected; 202: a bank has not answered yet, the runner finishes it.
        response: jsonAnswers({ 201: ZCollectResponse, 202: ZCollectResponse }),
      },
    },
    async (request, reply) => {
      const merchant = merchantOf(request);
      const { paymentId } = request.params;
      const key = request.headers['idempotency-key'];
      const answer = await runIdempotentCall(
        ctx.db,
        key
          ? {
              scope: `payments.collect:${merchant.clientId}`,
              key,
              request: { paymentId, ...request.body },
            }
          : undefined,
        async () => {
          const collection = await collectOnRequest(ctx, merchant, paymentId, request.body.amount);
          return {
            status: collection.status === 'succeeded' ? 201 : 202,
            body: { success: true, collection },
          };
        },
        { waitMs: BANK_CALL_RETRY_WAIT_MS },
      );
      return reply.code(answer.status).send(answer.body as never);
    },
  );

  api.get(
    '/api/v1/payments/:paymentId',
    {
      preValidation,
      schema: {
        params: ZPaymentIdParams,
        response: jsonAnswers({ 200: ZMerchantPaymentResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      payment: await readMerchantPayment(ctx.db, merchantOf(request), request.params.paymentId),
    }),
  );
};
