import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { DASHBOARD_PATH } from '../../domain/dashboard-roles';
import type { TRouteContext } from '../context';
import type { TWaitingChallenges } from '../sandbox/sandbox-challenges';
import type { TSandboxNotices } from '../sandbox/sandbox-notices';
import { openRequestLog } from '../services/dashboard/developers';
import { newNonce, setPageHeaders } from '../response-headers';
import { dashboardAuthRoutes } from './dashboard-auth';
import { dashboardConsentRoutes } from './dashboard-consents';
import { dashboardDeveloperRoutes } from './dashboard-developers';
import { dashboardEventFormRoutes } from './dashboard-events-forms';
import { dashboardPaymentRoutes } from './dashboard-payments';
import { dashboardRouteSettingsRoutes } from './dashboard-routes-settings';
import { dashboardSandboxRoutes } from './dashboard-sandbox';
import { dashboardTeamRoutes } from './dashboard-team';
import { dashboardTerminalRoutes } from './dashboard-terminals';

/** Where the build writes the dashboard's page (vite.config.ts): in .vite/, so never served raw. */
export const DASHBOARD_HTML = '.vite/dashboard.html';

/**
 * The merchant dashboard (docs/dashboard.md): its API under /api/dashboard, and its page at
 * /dashboard (with the page's own paths below it), built apart from the payer's page.
 */
export const dashboardRoutes: FastifyPluginAsync<
  TRouteContext & {
    webDir?: string | undefined;
    notices: TSandboxNotices | null;
    challenges: TWaitingChallenges;
  }
> = async (app, options) => {
  const { webDir, notices, challenges, ...ctx } = options;
  await app.register(dashboardAuthRoutes, ctx);
  await app.register(dashboardTeamRoutes, ctx);
  await app.register(dashboardPaymentRoutes, ctx);
  await app.register(dashboardConsentRoutes, ctx);
  await app.register(dashboardDeveloperRoutes, ctx);
  await app.register(dashboardEventFormRoutes, ctx);
  await app.register(dashboardTerminalRoutes, ctx);
  await app.register(dashboardRouteSettingsRoutes, ctx);
  await app.register(dashboardSandboxRoutes, { ...ctx, notices, challenges });
  if (!webDir) return;
  const file = path.join(webDir, DASHBOARD_HTML);
  if (!existsSync(file)) {
    throw new Error(`The dashboard is not built: ${file} is missing. Run: npm run build`);
  }
  const [before, after] = splitAtScripts(readFileSync(file, 'utf8'));
  for (const url of [DASHBOARD_PATH, `${DASHBOARD_PATH}/*`]) {
    app.get(url, { schema: { hide: true } }, async (_request, reply) => {
      const nonce = newNonce();
      // Nobody frames the back office.
      return setPageHeaders(reply, { nonce, frameAncestors: "'none'" }).send(
        `${before}${nonce}${after.join(nonce)}`,
      );
    });
  }
};

/** The built page cut where each script and module preload takes the answer's nonce. */
function splitAtScripts(html: string): [string, string[]] {
  const parts = html
    .replace(/<script\b/g, '<script nonce="\u0000"')
    .replace(/<link\b(?=[^>]*\brel=["']?modulepreload\b)/g, '<link nonce="\u0000"')
    .split('\u0000');
  return [parts[0] ?? '', parts.slice(1)];
}

/**
 * Keeps each merchant API request (/api/v1) a client's credentials authenticated, for the
 * dashboard's request log (7 days: older rows go when the log is read). Kept after the answer
 * went and written a batch at a time (openRequestLog), so a request waits on nothing; a write that
 * fails is logged, never answered. The app's close writes what waits.
 */
export function recordMerchantRequests(
  app: FastifyInstance,
  ctx: Pick<TRouteContext, 'db' | 'clock'>,
) {
  const log = openRequestLog(ctx.db, (err) =>
    app.log.warn({ err }, 'the request log could not keep a request'),
  );
  app.addHook('onResponse', async (request, reply) => {
    const client = request.merchantClient;
    if (!client || !request.url.startsWith('/api/v1/')) return;
    const key = request.headers['idempotency-key'];
    log.keep({
      clientId: client.clientId,
      method: request.method,
      path: (request.url.split('?')[0] ?? request.url).slice(0, 500),
      status: reply.statusCode,
      idempotencyKey: typeof key === 'string' ? key.slice(0, 200) : null,
      requestId: String(request.id),
      createdAt: ctx.clock.now(),
    });
  });
  app.addHook('onClose', () => log.flush());
}
