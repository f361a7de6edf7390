import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZSandboxToolChallengeRequest,
  ZSandboxToolChallengeResponse,
  ZSandboxToolEventRequest,
  ZSandboxToolEventResponse,
  ZSandboxToolsResponse,
  ZSandboxToolTransferRequest,
  ZSandboxToolTransferResponse,
} from '../../domain/schemas/dashboard-sandbox';
import type { TRouteContext } from '../context';
import type { TWaitingChallenges } from '../sandbox/sandbox-challenges';
import type { TSandboxNotices } from '../sandbox/sandbox-notices';
import { actorOf } from '../services/dashboard/audit';
import {
  answerChallengeFromDashboard,
  fireEventFromDashboard,
  sandboxTools,
  sendTransferFromDashboard,
} from '../services/dashboard/sandbox-tools';
import { staffGuard, staffOf } from './dashboard-guard';
import { jsonAnswers } from './responses';

/**
 * Sandbox tools (docs/dashboard.md "Sandbox tools"): send a transfer, answer a 3-D Secure check,
 * fire a test event, for the merchant's own payments and keys. Registered only in sandbox mode,
 * as the sandbox's own routes are: with a real provider none of them exists.
 */
export const dashboardSandboxRoutes: FastifyPluginAsync<
  TRouteContext & { notices: TSandboxNotices | null; challenges: TWaitingChallenges }
> = async (app, ctx) => {
  const { notices, challenges } = ctx;
  if (!ctx.sandbox || !notices) return;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = staffGuard(app, ctx);
  const onRequest = guard({ action: 'sandbox.use' });
  const merchantOf = (request: Parameters<typeof staffOf>[0]) => staffOf(request).staff.merchantId;

  r.get(
    '/api/dashboard/sandbox',
    {
      onRequest,
      schema: {
        operationId: 'dashboardSandboxTools',
        summary: 'The merchant’s payments waiting on the sandbox network, and its live webhooks',
        response: jsonAnswers({ 200: ZSandboxToolsResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await sandboxTools(ctx.db, merchantOf(request))),
    }),
  );

  r.post(
    '/api/dashboard/sandbox/transfers',
    {
      onRequest,
      idempotency: {
        scope: (request) => `dashboard.sandbox-transfer:${merchantOf(request)}`,
      },
      schema: {
        operationId: 'dashboardSandboxTransfer',
        summary: 'Send a sandbox transfer to one of the merchant’s payments',
        body: ZSandboxToolTransferRequest,
        response: jsonAnswers({ 200: ZSandboxToolTransferResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await sendTransferFromDashboard(ctx, notices, actorOf(staffOf(request)), request.body)),
    }),
  );

  r.post(
    '/api/dashboard/sandbox/challenges',
    {
      onRequest,
      idempotency: {
        scope: (request) => `dashboard.sandbox-challenge:${merchantOf(request)}`,
      },
      schema: {
        operationId: 'dashboardSandboxChallenge',
        summary: 'Answer the 3-D Secure check of one of the merchant’s card payments',
        body: ZSandboxToolChallengeRequest,
        response: jsonAnswers({ 200: ZSandboxToolChallengeResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await answerChallengeFromDashboard(
        ctx,
        notices,
        challenges,
        actorOf(staffOf(request)),
        request.body,
      )),
    }),
  );

  r.post(
    '/api/dashboard/sandbox/events',
    {
      onRequest,
      idempotency: {
        scope: (request) => `dashboard.sandbox-event:${merchantOf(request)}`,
      },
      schema: {
        operationId: 'dashboardSandboxEvent',
        summary: 'Fire a test webhook event at the merchant’s webhooks',
        body: ZSandboxToolEventRequest,
        response: jsonAnswers({ 201: ZSandboxToolEventResponse }),
      },
    },
    async (request, reply) => {
      const fired = await fireEventFromDashboard(ctx, actorOf(staffOf(request)), request.body.type);
      void reply.code(201);
      return { success: true as const, ...fired };
    },
  );
};
