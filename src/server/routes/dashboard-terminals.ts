import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZDashboardOk } from '../../domain/schemas/dashboard';
import {
  ZDashboardTerminalAddRequest,
  ZDashboardTerminalParams,
  ZDashboardTerminalResponse,
  ZDashboardTerminalsResponse,
} from '../../domain/schemas/dashboard-terminals';
import type { TRouteContext } from '../context';
import { actorOf } from '../services/dashboard/audit';
import { addTerminal, listTerminals, removeTerminal } from '../services/dashboard/terminals';
import { staffGuard, staffOf } from './dashboard-guard';
import { jsonAnswers } from './responses';

const merchantOf = (request: FastifyRequest) => staffOf(request).staff.merchantId;

/**
 * The merchant's card terminals (docs/providers/paystack-terminal.md "Registering terminals"):
 * the list, one registered, one removed; owners only (terminals.manage), each change once per
 * Idempotency-Key and in the audit log.
 */
export const dashboardTerminalRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const terminals = staffGuard(app, ctx)({ action: 'terminals.manage' });

  r.get(
    '/api/dashboard/terminals',
    {
      onRequest: terminals,
      schema: {
        operationId: 'dashboardTerminals',
        summary: 'The merchant’s card terminals, by name',
        response: jsonAnswers({ 200: ZDashboardTerminalsResponse }),
      },
    },
    async (request) => listTerminals(ctx, merchantOf(request)),
  );

  r.post(
    '/api/dashboard/terminals',
    {
      onRequest: terminals,
      idempotency: { scope: (request) => `dashboard.terminal-add:${merchantOf(request)}` },
      schema: {
        operationId: 'dashboardAddTerminal',
        summary: 'Register a Paystack Terminal by its id, with the name payers see',
        body: ZDashboardTerminalAddRequest,
        response: jsonAnswers({ 200: ZDashboardTerminalResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      terminal: await addTerminal(ctx, actorOf(staffOf(request)), request.body),
    }),
  );

  r.delete(
    '/api/dashboard/terminals/:id',
    {
      onRequest: terminals,
      idempotency: {
        scope: (request) => `dashboard.terminal-remove:${merchantOf(request)}`,
        request: (request) => request.params,
      },
      schema: {
        operationId: 'dashboardRemoveTerminal',
        summary: 'Remove a terminal: payers are no longer sent to it',
        params: ZDashboardTerminalParams,
        response: jsonAnswers({ 200: ZDashboardOk }),
      },
    },
    async (request) => {
      await removeTerminal(ctx, actorOf(staffOf(request)), request.params.id);
      return { success: true as const };
    },
  );
};
