// The merchant dashboard's page, as tests drive it (docs/dashboard.md): its calls with the
// session cookie, our Origin and the CSRF token on writes; an invitation accepted with its SMS
// code; the session's passkey made on a soft authenticator. dashboard.test.ts and the fuzz
// suite's staff fixture (testing/fuzz.ts) both take staff members through these real routes.
import type { FastifyInstance, InjectOptions } from 'fastify';
import { expect } from 'vitest';
import type { TStaffRole } from '../../domain/dashboard-roles';
import type { TWebAuthnOptions } from '../../domain/schemas/auth';
import type { TConfig } from '../config';
import type { TDatabase } from '../db/database';
import { operatorActor } from '../services/dashboard/audit';
import { createInvitation } from '../services/dashboard/staff';
import { CSRF_HEADER } from '../services/dashboard/staff-sessions';
import { latestCode, softAuthenticatorFor, testPhone } from './identity';
import type { SoftAuthenticator } from './soft-authenticator';

/** The app the dashboard's page talks to. */
export type TDashboardApp = { app: FastifyInstance; config: TConfig; database: TDatabase };

/** What the page holds of a session: its cookie and its CSRF token. */
export type TStaffSession = { cookie: string; csrf: string };

export type TStaff = TStaffSession & {
  soft: SoftAuthenticator;
  phone: string;
  merchantId: string;
};

/** The page's origin: the server's own, which every write must come from. */
export const dashboardOrigin = (config: Pick<TConfig, 'publicUrl'>) =>
  new URL(config.publicUrl).origin;

/** The `name=value` of the first Set-Cookie, as a browser sends it back. */
export const cookieOf = (setCookie: string | string[] | undefined) => {
  const line = [setCookie ?? []].flat()[0] ?? '';
  return line.split(';')[0] ?? '';
};

/** An invitation link's token: what follows its `#`. */
export const invitationToken = (url: string) => url.slice(url.indexOf('#') + 1);

/** A call of the dashboard's page: its cookie, its Origin, and its CSRF token on writes. */
export function dashboardCall(
  { app, config }: TDashboardApp,
  staff: TStaffSession | null,
  options: InjectOptions,
) {
  const headers: Record<string, string> = {
    origin: dashboardOrigin(config),
    ...(options.headers as object),
  };
  if (staff) {
    headers.cookie = staff.cookie;
    if (options.method !== 'GET') headers[CSRF_HEADER] = staff.csrf;
  }
  return app.inject({ ...options, headers });
}

/** The session's CSRF token, as the page reads it. */
export async function csrfOf(dashboard: TDashboardApp, cookie: string): Promise<string> {
  const session = await dashboardCall(
    dashboard,
    { cookie, csrf: '' },
    { method: 'GET', url: '/api/dashboard/session' },
  );
  expect(session.statusCode, session.body).toBe(200);
  return session.json<{ csrfToken: string }>().csrfToken;
}

/** Accepts an invitation by its link's token: the code to the phone, then the code back. */
export async function acceptInvitation(
  dashboard: TDashboardApp,
  token: string,
  phone: string,
  fullName = 'Bisi Adeyemi',
) {
  const sent = await dashboardCall(dashboard, null, {
    method: 'POST',
    url: '/api/dashboard/invitations/code',
    payload: { token, phone },
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const code = await latestCode(dashboard.app, phone);
  return dashboardCall(dashboard, null, {
    method: 'POST',
    url: '/api/dashboard/invitations/accept',
    payload: { token, phone, code, fullName },
  });
}

/** Makes the session's passkey on a new soft authenticator. */
export async function makeStaffPasskey(dashboard: TDashboardApp, session: TStaffSession) {
  const soft = softAuthenticatorFor(dashboard.config);
  const options = await dashboardCall(dashboard, session, {
    method: 'POST',
    url: '/api/dashboard/passkeys/options',
  });
  expect(options.statusCode, options.body).toBe(200);
  const response = soft.register(options.json<{ options: TWebAuthnOptions }>().options);
  const saved = await dashboardCall(dashboard, session, {
    method: 'POST',
    url: '/api/dashboard/passkeys',
    payload: { response },
  });
  expect(saved.statusCode, saved.body).toBe(201);
  return soft;
}

/** A staff member of `merchantId` with `role`, invited by the operator, passkey made. */
export async function staffMember(
  dashboard: TDashboardApp,
  input: { merchantId: string; role: TStaffRole; refundLimit?: number | null },
  now: Date,
): Promise<TStaff> {
  const { merchantId, role, refundLimit = null } = input;
  const phone = testPhone();
  const invited = await createInvitation(
    dashboard.database.db,
    dashboard.config,
    { merchantId, role, refundLimit, phoneNumber: null, invitedBy: operatorActor(merchantId) },
    now,
  );
  const accepted = await acceptInvitation(dashboard, invitationToken(invited.invitationUrl), phone);
  expect(accepted.statusCode, accepted.body).toBe(200);
  const cookie = cookieOf(accepted.headers['set-cookie']);
  const csrf = await csrfOf(dashboard, cookie);
  const soft = await makeStaffPasskey(dashboard, { cookie, csrf });
  return { cookie, csrf, soft, phone, merchantId };
}

/**
 * Recovers `phone`'s dashboard access with an SMS code and makes a new passkey: a passkey added
 * with an SMS code alone, whose session reads at once and changes nothing for a day.
 */
export async function recoverStaffPasskey(dashboard: TDashboardApp, phone: string) {
  const sent = await dashboardCall(dashboard, null, {
    method: 'POST',
    url: '/api/dashboard/recovery/code',
    payload: { phone },
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const recovered = await dashboardCall(dashboard, null, {
    method: 'POST',
    url: '/api/dashboard/recovery',
    payload: { phone, code: await latestCode(dashboard.app, phone) },
  });
  expect(recovered.statusCode, recovered.body).toBe(200);
  const cookie = cookieOf(recovered.headers['set-cookie']);
  const session = { cookie, csrf: await csrfOf(dashboard, cookie) };
  const soft = await makeStaffPasskey(dashboard, session);
  return { session, soft };
}
