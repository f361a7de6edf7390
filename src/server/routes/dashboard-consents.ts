import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZCancelFuturePaymentsRequest,
  ZConsentIdParams,
  ZDashboardConsentResponse,
} from '../../domain/schemas/dashboard-consents';
import {
  ZMerchantConsentsQuery,
  ZMerchantConsentsResponse,
} from '../../domain/schemas/merchant-api';
import type { TRouteContext } from '../context';
import { listMerchantConsents } from '../services/consents/consents';
import { actorOf } from '../services/dashboard/audit';
import {
  cancelFuturePaymentsFromDashboard,
  dashboardConsent,
} from '../services/dashboard/consents';
import { staffGuard, staffOf } from './dashboard-guard';
import { jsonAnswers } from './responses';

/** Consents and mandates: the list, a consent, cancelling its future payments (docs/dashboard.md). */
export const dashboardConsentRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const { db } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = staffGuard(app, ctx);

  r.get(
    '/api/dashboard/consents',
    {
      onRequest: guard({ action: 'consents.read' }),
      schema: {
        operationId: 'dashboardListConsents',
        summary: 'List the merchant’s consents, newest first, by status or reference',
        querystring: ZMerchantConsentsQuery,
        response: jsonAnswers({ 200: ZMerchantConsentsResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await listMerchantConsents(db, staffOf(request).staff.merchantId, request.query)),
    }),
  );

  r.get(
    '/api/dashboard/consents/:consentId',
    {
      onRequest: guard({ action: 'consents.read' }),
      schema: {
        operationId: 'dashboardConsent',
        summary: 'A consent, its mandates, grant record and schedule of future payments',
        params: ZConsentIdParams,
        response: jsonAnswers({ 200: ZDashboardConsentResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await dashboardConsent(db, staffOf(request).staff.merchantId, request.params.consentId)),
    }),
  );

  r.post(
    '/api/dashboard/consents/:consentId/cancel-future-payments',
    {
      onRequest: guard({ action: 'consents.cancel' }),
      schema: {
        operationId: 'dashboardCancelFuturePayments',
        summary: 'Cancel a granted consent’s future payments with a reason; the payer is told',
        params: ZConsentIdParams,
        body: ZCancelFuturePaymentsRequest,
        response: jsonAnswers({ 200: ZDashboardConsentResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await cancelFuturePaymentsFromDashboard(
        ctx,
        actorOf(staffOf(request)),
        request.params.consentId,
        request.body.reason,
      )),
    }),
  );
};
