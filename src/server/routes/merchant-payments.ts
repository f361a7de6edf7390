import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZCollectRequest,
  ZCollectResponse,
  ZMerchantPaymentResponse,
  ZMerchantPaymentsQuery,
  ZMerchantPaymentsResponse,
  ZPaymentIdParams,
} from '../../domain/schemas/collections';
import { ZRefundRequest, ZRefundResponse } from '../../domain/schemas/refunds';
import type { TRouteContext } from '../context';
import { collectOnRequest, readMerchantPayment } from '../services/payments/merchant-payments';
import { listMerchantPayments } from '../services/payments/payment-list';
import { requestRefund } from '../services/payments/refunds';
import { merchantOf, requireMerchant } from './merchant-guard';
import { jsonAnswers } from './responses';

/**
 * The merchant's payments (docs/payments.md "Collecting future payments", "Refunds"), with client
 * credentials: collect a variable or 'As needed' future payment once its payer is told, refund a paid payment, and
 * read a payment with its collections and refunds.
 */
export const merchantPaymentRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const preValidation = requireMerchant(ctx);

  api.post(
    '/api/v1/payments/:paymentId/collect',
    {
      preValidation,
      idempotency: {
        scope: (request) => `payments.collect:${merchantOf(request).clientId}`,
        request: ({ params, body }) => ({ paymentId: params.paymentId, ...body }),
      },
      schema: {
        operationId: 'collectPayment',
        summary: "Collect a variable or 'As needed' future payment once its payer is told",
        description:
          'Every debit of a mandate waits for its payer’s notice: the payer is sent an SMS now, and ' +
          'the collection is debited no sooner than DEBIT_NOTICE_HOURS (24 by default) after it. ' +
          'Answers 202 with the collection pending and `dueAt`, when it will be debited; ' +
          'future_payment.collected or future_payment.failed tell the outcome. One whose payer ' +
          'cannot be sent the notice waits for the next day’s notice, due later ' +
          '(future_payment.delayed, reason payer_not_notified): never debited untold.',
        params: ZPaymentIdParams,
        body: ZCollectRequest,
        response: jsonAnswers({ 202: ZCollectResponse }),
      },
    },
    async (request, reply) => {
      const { paymentId } = request.params;
      const collection = await collectOnRequest(
        ctx,
        merchantOf(request),
        paymentId,
        request.body.amount,
      );
      void reply.code(202);
      return { success: true as const, collection };
    },
  );

  api.post(
    '/api/v1/payments/:paymentId/refunds',
    {
      preValidation,
      idempotency: {
        scope: (request) => `payments.refund:${merchantOf(request).clientId}`,
        request: ({ params, body }) => ({ paymentId: params.paymentId, ...body }),
      },
      schema: {
        operationId: 'refundPayment',
        summary: 'Refund a paid payment, whole or in part',
        params: ZPaymentIdParams,
        body: ZRefundRequest,
        // 201: processed or failed; 202: the provider has not answered yet.
        response: jsonAnswers({ 201: ZRefundResponse, 202: ZRefundResponse }),
      },
    },
    async (request, reply) => {
      const refund = await requestRefund(
        ctx,
        merchantOf(request),
        request.params.paymentId,
        request.body,
      );
      void reply.code(refund.status === 'pending' ? 202 : 201);
      return { success: true as const, refund };
    },
  );

  api.get(
    '/api/v1/payments/:paymentId',
    {
      preValidation,
      schema: {
        operationId: 'getPayment',
        summary: 'Read one payment with its collections and refunds',
        params: ZPaymentIdParams,
        response: jsonAnswers({ 200: ZMerchantPaymentResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      payment: await readMerchantPayment(ctx.db, merchantOf(request), request.params.paymentId),
    }),
  );

  api.get(
    '/api/v1/payments',
    {
      preValidation,
      schema: {
        operationId: 'listPayments',
        summary: 'List payments, newest first, by status, method, time, reference or consent',
        querystring: ZMerchantPaymentsQuery,
        response: jsonAnswers({ 200: ZMerchantPaymentsResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await listMerchantPayments(ctx.db, merchantOf(request).merchantId, request.query)),
    }),
  );
};
