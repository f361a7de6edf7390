import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdempotencyKey } from '../../domain/schemas/merchant-api';
import { ZReleasePendingRequest, ZReleasePendingResponse } from '../../domain/schemas/payment';
import type { TRouteContext } from '../context';
import { BANK_CALL_RETRY_WAIT_MS, runIdempotentCall } from '../services/idempotency';
import { releasePending } from '../services/payouts';
import { payerOf, requirePayer } from './payer-guard';
import { payerScope } from './payment-access';
import { jsonAnswers } from './responses';

/**
 * Releasing what the signed-in payer's payment requests collected to one of their linked accounts
 * (spec §7 POST /api/payments/release-pending; docs/payments.md "Releasing").
 */
export const payoutRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/payments/release-pending',
    {
      onRequest: requirePayer(ctx, { identifyTo: 'ignore' }),
      schema: {
        body: ZReleasePendingRequest,
        headers: z.object({ 'idempotency-key': ZIdempotencyKey.optional() }),
        response: jsonAnswers({ 200: ZReleasePendingResponse }),
      },
    },
    async (request, reply) => {
      const { payerId } = payerOf(request);
      const key = request.headers['idempotency-key'];
      const answer = await runIdempotentCall(
        ctx.db,
        key
          ? {
              scope: payerScope('payments.release-pending', { payerId }),
              key,
              request: request.body,
            }
          : undefined,
        async () => ({
          status: 200,
          body: await releasePending(ctx, payerId, request.body.destinationAccountId),
        }),
        { waitMs: BANK_CALL_RETRY_WAIT_MS },
      );
      return reply.code(answer.status).send(answer.body as never);
    },
  );
};
