import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DASHBOARD_PAGE_SIZE } from '../../domain/schemas/dashboard';
import {
  ZDashboardEventsQuery,
  ZDashboardFormResponse,
  ZDashboardFormsResponse,
  ZDashboardPageQuery,
  ZFormIdParams,
  ZFormResponseIdParams,
} from '../../domain/schemas/dashboard-events-forms';
import { ZMerchantFormResponse } from '../../domain/schemas/form';
import { ZMerchantEventsResponse } from '../../domain/schemas/webhooks';
import type { TRouteContext } from '../context';
import {
  dashboardForm,
  dashboardFormAnswers,
  listDashboardForms,
} from '../services/dashboard/forms';
import { lagosDay } from '../services/dashboard/payments';
import { listEventsOfMerchant } from '../services/merchants/merchant-events';
import { staffGuard, staffOf } from './dashboard-guard';
import { jsonAnswers } from './responses';

/** Events, and forms with their responses (docs/dashboard.md "Events", "Forms"). */
export const dashboardEventFormRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const { db, clock, config } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = staffGuard(app, ctx);
  const forms = guard({ action: 'forms.read' });
  const merchantOf = (request: Parameters<typeof staffOf>[0]) => staffOf(request).staff.merchantId;

  r.get(
    '/api/dashboard/events',
    {
      onRequest: guard({ action: 'logs.read' }),
      schema: {
        operationId: 'dashboardListEvents',
        summary: 'The merchant’s events of the last 30 days, newest first, by type and day',
        querystring: ZDashboardEventsQuery,
        response: jsonAnswers({ 200: ZMerchantEventsResponse }),
      },
    },
    async (request) => {
      const { type, from, to, cursor } = request.query;
      return {
        success: true as const,
        ...(await listEventsOfMerchant(
          db,
          merchantOf(request),
          {
            type,
            createdFrom: from ? lagosDay(from).toISOString() : undefined,
            createdTo: to ? lagosDay(to, true).toISOString() : undefined,
            cursor,
            limit: DASHBOARD_PAGE_SIZE,
          },
          clock.now(),
        )),
      };
    },
  );

  r.get(
    '/api/dashboard/forms',
    {
      onRequest: forms,
      schema: {
        operationId: 'dashboardListForms',
        summary: 'The merchant’s forms, newest first, with how many responses each has',
        querystring: ZDashboardPageQuery,
        response: jsonAnswers({ 200: ZDashboardFormsResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await listDashboardForms(db, merchantOf(request), request.query.cursor)),
    }),
  );

  r.get(
    '/api/dashboard/forms/:formId',
    {
      onRequest: forms,
      schema: {
        operationId: 'dashboardForm',
        summary: 'A form and its responses, newest first: who answered and when',
        params: ZFormIdParams,
        querystring: ZDashboardPageQuery,
        response: jsonAnswers({ 200: ZDashboardFormResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await dashboardForm(
        db,
        merchantOf(request),
        request.params.formId,
        request.query.cursor,
      )),
    }),
  );

  r.get(
    '/api/dashboard/forms/:formId/responses/:responseId',
    {
      onRequest: forms,
      schema: {
        operationId: 'dashboardFormResponse',
        summary: 'A payer’s answers to a form, files as short-lived links',
        params: ZFormResponseIdParams,
        response: jsonAnswers({ 200: ZMerchantFormResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      response: await dashboardFormAnswers(
        db,
        config.publicUrl,
        merchantOf(request),
        request.params,
        clock.now(),
      ),
    }),
  );
};
