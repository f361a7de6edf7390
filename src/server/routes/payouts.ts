import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZReleasePendingRequest, ZReleasePendingResponse } from '../../domain/schemas/payment';
import type { TRouteContext } from '../context';
import { releasePending } from '../services/payments/payouts';
import { payerOf, requirePasskeyProof, requirePayer } from './payer-guard';
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
      // Money leaves to an account: a session signed in by an SMS code alone may not send it.
      onRequest: [requirePayer(ctx, { identifyTo: 'ignore' }), requirePasskeyProof],
      idempotency: {
        scope: (request) =>
          payerScope('payments.release-pending', { payerId: payerOf(request).payerId }),
      },
      schema: {
        operationId: 'releasePendingPayouts',
        summary: 'Release what payment requests collected to a linked account',
        body: ZReleasePendingRequest,
        response: jsonAnswers({ 200: ZReleasePendingResponse }),
      },
    },
    async (request) =>
      releasePending(ctx, payerOf(request).payerId, request.body.destinationAccountId),
  );
};
