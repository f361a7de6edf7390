import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZDashboardRouteChange,
  ZDashboardRoutesResponse,
  ZDashboardRouteSettingsResponse,
  type TDashboardRouteChange,
  type TDashboardRouteSettingsResponse,
} from '../../domain/schemas/dashboard-routes';
import type { TAppContext, TRouteContext } from '../context';
import { actorOf, type TActor } from '../services/dashboard/audit';
import {
  clearProvider,
  pauseProvider,
  pinProvider,
  readRoutes,
} from '../services/dashboard/routes';
import { staffGuard, staffOf } from './dashboard-guard';
import { jsonAnswers } from './responses';

const merchantOf = (request: FastifyRequest) => staffOf(request).staff.merchantId;

type TRouteChanger = (
  ctx: Pick<TAppContext, 'db' | 'clock' | 'capabilities'>,
  who: TActor,
  change: TDashboardRouteChange,
) => Promise<TDashboardRouteSettingsResponse>;

/** Each change, its path and what its summary says. */
const CHANGES: Array<{ path: string; id: string; summary: string; change: TRouteChanger }> = [
  {
    path: 'pin',
    id: 'dashboardPinRoute',
    summary: 'Pin a provider: the merchant’s new work of the capability tries it first',
    change: pinProvider,
  },
  {
    path: 'pause',
    id: 'dashboardPauseRoute',
    summary: 'Pause a provider: the merchant’s new work of the capability leaves it out',
    change: pauseProvider,
  },
  {
    path: 'clear',
    id: 'dashboardClearRoute',
    summary: 'Clear a provider’s pin or pause',
    change: clearProvider,
  },
];

/**
 * The Routes screen (docs/dashboard.md "Routes", docs/routing.md): each capability's providers,
 * their health, what failover recovered (owners and developers, routes.read); a provider pinned,
 * paused or cleared for the merchant's new work (owners, routes.manage: a passkey added by SMS
 * code waits its day first), each once per Idempotency-Key and in the audit log.
 */
export const dashboardRouteSettingsRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = staffGuard(app, ctx);

  r.get(
    '/api/dashboard/routes',
    {
      onRequest: guard({ action: 'routes.read' }),
      schema: {
        operationId: 'dashboardRoutes',
        summary:
          'Each capability’s providers, their health now, and the payments failover recovered',
        response: jsonAnswers({ 200: ZDashboardRoutesResponse }),
      },
    },
    async (request) => readRoutes(ctx, merchantOf(request)),
  );

  const manage = guard({ action: 'routes.manage' });
  for (const { path, id, summary, change } of CHANGES) {
    r.post(
      `/api/dashboard/routes/${path}`,
      {
        onRequest: manage,
        idempotency: { scope: (request) => `dashboard.route-${path}:${merchantOf(request)}` },
        schema: {
          operationId: id,
          summary,
          body: ZDashboardRouteChange,
          response: jsonAnswers({ 200: ZDashboardRouteSettingsResponse }),
        },
      },
      async (request) => change(ctx, actorOf(staffOf(request)), request.body),
    );
  }
};
