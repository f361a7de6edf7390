import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdentifier } from '../../domain/schemas/fields';
import {
  ZPaymentAccessQuery,
  ZPaymentStateResponse,
  ZTransferConfirmResponse,
  ZTransferDetailsResponse,
  ZTransferOpenRequest,
} from '../../domain/schemas/payment';
import type { TRouteContext } from '../context';
import { paymentState } from '../services/payments/payment-reads';
import { confirmTransfer, transferDetailsFor } from '../services/payments/transfer-payments';
import { chargeTokensOf, paymentAccessOf, ZChargeTokens } from './payment-access';
import { jsonAnswers } from './responses';

const params = z.object({ paymentId: ZIdentifier });

/**
 * Paying by transfer, and a payment's state (docs/payments.md). The spec shows the transfer
 * screen, not its calls: these are ours. A payer who is not signed in names the consent whose
 * link they hold (`?consentId=`).
 */
export const transferPaymentRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/payments/:paymentId/transfer',
    {
      schema: {
        operationId: 'startTransferPayment',
        summary: 'Get a one-time account to pay a payment into by transfer',
        params,
        querystring: ZPaymentAccessQuery,
        body: ZTransferOpenRequest,
        response: jsonAnswers({ 200: ZTransferDetailsResponse }),
      },
    },
    async (request) => {
      const access = await paymentAccessOf(ctx, request, request.query.consentId);
      const { chargeToken, ...transferDetails } = await transferDetailsFor(
        ctx,
        request.params.paymentId,
        access,
        request.body?.chargeToken,
      );
      return {
        success: true as const,
        paymentId: request.params.paymentId,
        transferDetails,
        ...(chargeToken ? { chargeToken } : {}),
      };
    },
  );

  api.post(
    '/api/payments/:paymentId/transfer/confirm',
    {
      schema: {
        operationId: 'confirmTransferPayment',
        summary: 'Say the transfer was sent, to look for it now',
        params,
        querystring: ZPaymentAccessQuery,
        response: jsonAnswers({ 200: ZTransferConfirmResponse }),
      },
    },
    async (request) => {
      const access = await paymentAccessOf(ctx, request, request.query.consentId);
      const state = await confirmTransfer(ctx, request.params.paymentId, access);
      return { success: true as const, paymentId: request.params.paymentId, ...state };
    },
  );

  api.get(
    '/api/payments/:paymentId',
    {
      schema: {
        operationId: 'getPaymentStatus',
        summary: 'Read a payment’s status, for a page that lost its stream',
        params,
        querystring: z.object({ ...ZPaymentAccessQuery.shape, chargeToken: ZChargeTokens }),
        response: jsonAnswers({ 200: ZPaymentStateResponse }),
      },
    },
    async (request) => {
      const access = await paymentAccessOf(ctx, request, request.query.consentId);
      const chargeTokens = chargeTokensOf(request.query.chargeToken);
      return paymentState(ctx, request.params.paymentId, { access, chargeTokens });
    },
  );
};
