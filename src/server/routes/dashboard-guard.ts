import { timingSafeEqual } from 'node:crypto';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
} from 'fastify';
import { mayDo, type TDashboardAction } from '../../domain/dashboard-roles';
import { formatErrorMessage } from '../../domain/errors';
import { formatLagosDateTime } from '../../domain/payment-date';
import type { TRouteContext } from '../context';
import { AppError } from '../app-error';
import {
  clearedSessionCookie,
  CSRF_HEADER,
  sessionTokenOf,
  touchDashboardSession,
  type TStaffPrincipal,
} from '../services/dashboard/staff-sessions';

/*
 * The dashboard's guards (docs/dashboard.md "Sessions"): every route names the action it does
 * (domain/dashboard-roles.ts) and the guard checks the session's role against it on the server.
 * A write must come from our page: its Origin is one of ours (SameSite=Strict keeps the cookie
 * off other sites' requests already) and it carries the session's CSRF token. Each staff member
 * has a budget of calls a minute.
 */

/** Calls a minute one staff member's session may make. */
export const DASHBOARD_CALLS_PER_MINUTE = 300;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Refuses a write whose Origin is not the server's own (the page's). */
export function refuseForeignOrigin(
  ctx: Pick<TRouteContext, 'config'>,
  request: FastifyRequest,
): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || !ctx.config.webauthnOrigins.includes(origin)) {
    throw new AppError('DASHBOARD_CSRF_REFUSED');
  }
}

/** onRequest hook of the dashboard's calls made before a session (invitations, sign-in). */
export const requireSameOrigin =
  (ctx: Pick<TRouteContext, 'config'>): onRequestAsyncHookHandler =>
  async (request) =>
    refuseForeignOrigin(ctx, request);

/** Compared as bytes: a header of latin-1 characters is as long as the token in characters but
 * not in bytes, and timingSafeEqual throws on buffers of different lengths (it answered 500). */
function sameToken(a: string, b: string): boolean {
  const [presented, expected] = [Buffer.from(a), Buffer.from(b)];
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

export type TStaffGuardOptions = {
  /** The action the route does; null: any signed-in staff member (the session read). */
  action: TDashboardAction | null;
  /** The route serves a session an SMS code opened (making its passkey). */
  codeSession?: boolean;
};

/** Builds the staff guard of one plugin: each route asks it for its own hook. */
export function staffGuard(
  app: FastifyInstance,
  ctx: Pick<TRouteContext, 'db' | 'config' | 'clock'>,
) {
  const counted = app.createRateLimit({
    max: DASHBOARD_CALLS_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `dashboard:${request.staff?.sessionId ?? request.ip}`,
  });
  const countCall = async (request: FastifyRequest, reply: FastifyReply) => {
    let result;
    try {
      result = await counted(request);
    } catch (err) {
      request.log.warn({ err, limit: 'dashboard' }, 'the rate-limit store did not answer');
      throw new AppError('RATE_LIMITS_UNAVAILABLE');
    }
    if (!result.isAllowed && result.isExceeded) {
      const seconds = Math.max(1, Math.ceil(result.ttlInSeconds));
      void reply.header('Retry-After', String(seconds));
      throw new AppError('RATE_LIMITED', formatErrorMessage('RATE_LIMITED', { seconds }));
    }
  };

  return ({ action, codeSession = false }: TStaffGuardOptions): onRequestAsyncHookHandler =>
    async (request, reply) => {
      const token = sessionTokenOf(ctx.config, request.headers.cookie);
      const principal = token ? await touchDashboardSession(ctx.db, token, ctx.clock.now()) : null;
      if (!principal?.staff) {
        if (token) void reply.header('Set-Cookie', clearedSessionCookie(ctx.config));
        throw new AppError('DASHBOARD_SIGN_IN_REQUIRED');
      }
      request.staff = principal;
      await countCall(request, reply);
      if (!SAFE_METHODS.has(request.method)) {
        refuseForeignOrigin(ctx, request);
        const presented = request.headers[CSRF_HEADER];
        if (typeof presented !== 'string' || !sameToken(presented, principal.csrfToken)) {
          throw new AppError('DASHBOARD_CSRF_REFUSED');
        }
      }
      if (principal.method === 'phone-code' && !codeSession) {
        throw new AppError('DASHBOARD_PASSKEY_REQUIRED');
      }
      if (action && !mayDo(principal.staff.role, action)) {
        throw new AppError('DASHBOARD_ROLE_FORBIDDEN');
      }
      // A passkey added with an SMS code alone (a recovery) reads at once, and changes nothing
      // until the payers' own wait is over: a SIM swap opens no refund, key or team change.
      const changesFrom = principal.changesFrom;
      if (
        action &&
        !SAFE_METHODS.has(request.method) &&
        changesFrom &&
        changesFrom > ctx.clock.now()
      ) {
        throw new AppError(
          'DASHBOARD_PASSKEY_NOT_YET_TRUSTED',
          formatErrorMessage('DASHBOARD_PASSKEY_NOT_YET_TRUSTED', {
            changesFrom: formatLagosDateTime(changesFrom),
          }),
        );
      }
    };
}

/** The staff member the guard found, on the team. */
export function staffOf(request: FastifyRequest): TStaffPrincipal & {
  staff: NonNullable<TStaffPrincipal['staff']>;
} {
  const principal = request.staff;
  if (!principal?.staff) throw new AppError('DASHBOARD_SIGN_IN_REQUIRED');
  return { ...principal, staff: principal.staff };
}

declare module 'fastify' {
  interface FastifyRequest {
    staff?: TStaffPrincipal;
  }
}
