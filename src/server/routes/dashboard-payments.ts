import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZDashboardBanksResponse,
  ZDashboardRefundRequest,
  ZDashboardRefundResponse,
  ZPaymentDetailResponse,
  ZPaymentIdParams,
  ZPaymentSearchQuery,
  ZPaymentSearchResponse,
} from '../../domain/schemas/dashboard';
import type { TRouteContext } from '../context';
import { actorOf } from '../services/dashboard/audit';
import { paymentDetail, refundFromDashboard, searchPayments } from '../services/dashboard/payments';
import { refundBanks } from '../services/payments/refunds';
import { staffGuard, staffOf } from './dashboard-guard';
import { jsonAnswers } from './responses';

/**
 * Payments: search, a payment's timeline, its refund, and the banks a transfer's refund may be
 * paid to (docs/dashboard.md "Payments").
 */
export const dashboardPaymentRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const { db } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = staffGuard(app, ctx);

  r.get(
    '/api/dashboard/payments',
    {
      onRequest: guard({ action: 'payments.read' }),
      schema: {
        operationId: 'dashboardSearchPayments',
        summary: 'Search the merchant’s payments',
        querystring: ZPaymentSearchQuery,
        response: jsonAnswers({ 200: ZPaymentSearchResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await searchPayments(db, staffOf(request).staff.merchantId, request.query)),
    }),
  );

  r.get(
    '/api/dashboard/payments/:paymentId',
    {
      onRequest: guard({ action: 'payments.read' }),
      schema: {
        operationId: 'dashboardPayment',
        summary: 'A payment, its refunds and its timeline',
        params: ZPaymentIdParams,
        response: jsonAnswers({ 200: ZPaymentDetailResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await paymentDetail(db, staffOf(request).staff.merchantId, request.params.paymentId)),
    }),
  );

  r.post(
    '/api/dashboard/payments/:paymentId/refunds',
    {
      onRequest: guard({ action: 'payments.refund' }),
      idempotency: {
        scope: (request) => `dashboard.refund:${staffOf(request).staff.merchantId}`,
        request: ({ params, body }) => ({ paymentId: params.paymentId, ...body }),
      },
      schema: {
        operationId: 'dashboardRefund',
        summary: 'Refund a paid payment (support: up to the limit the owner set)',
        params: ZPaymentIdParams,
        body: ZDashboardRefundRequest,
        // 201: processed or failed; 202: the provider has not answered yet.
        response: jsonAnswers({ 201: ZDashboardRefundResponse, 202: ZDashboardRefundResponse }),
      },
    },
    async (request, reply) => {
      const { staff } = staffOf(request);
      const refund = await refundFromDashboard(
        ctx,
        { ...actorOf(staffOf(request)), role: staff.role, refundLimit: staff.refundLimit },
        request.params.paymentId,
        request.body,
      );
      void reply.code(refund.status === 'pending' ? 202 : 201);
      return { success: true as const, refund };
    },
  );

  r.get(
    '/api/dashboard/banks',
    {
      onRequest: guard({ action: 'payments.refund' }),
      schema: {
        operationId: 'dashboardBanks',
        summary: 'The banks a transfer’s refund may be paid back to, for the payer’s account',
        response: jsonAnswers({ 200: ZDashboardBanksResponse }),
      },
    },
    async () => ({ success: true as const, banks: await refundBanks(ctx) }),
  );
};
