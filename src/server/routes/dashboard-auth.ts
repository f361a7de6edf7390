import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ROLE_ACTIONS } from '../../domain/dashboard-roles';
import {
  ZCodeSentResponse,
  ZDashboardOk,
  ZDashboardPasskeyOptionsResponse,
  ZDashboardPasskeyRequest,
  ZDashboardSessionResponse,
  ZInvitationAcceptRequest,
  ZInvitationCodeRequest,
  ZInvitationLookupRequest,
  ZInvitationLookupResponse,
  ZRecoveryCodeRequest,
  ZRecoveryRequest,
  ZSignInOptionsResponse,
  ZSignInRequest,
} from '../../domain/schemas/dashboard';
import { ZPasskeyRegisterResponse } from '../../domain/schemas/auth';
import type { TRouteContext } from '../context';
import { capabilitiesOn } from '../providers/capability-lines';
import { capabilityOff } from '../providers/off';
import { actorOf, recordAudit } from '../services/dashboard/audit';
import {
  acceptInvitation,
  lookUpInvitation,
  sendInvitationCode,
} from '../services/dashboard/staff';
import {
  addStaffPasskey,
  askRecoveryCode,
  passkeyOptions,
  recoverWithCode,
  signInWithPasskey,
} from '../services/dashboard/staff-sign-in';
import {
  clearedSessionCookie,
  endDashboardSession,
  sessionCookie,
} from '../services/dashboard/staff-sessions';
import { signInOptions } from '../services/identity/passkeys';
import { requireSameOrigin, staffGuard, staffOf } from './dashboard-guard';
import { jsonAnswers } from './responses';
import type { TZodApp } from './zod-app';

type TStaffGuard = ReturnType<typeof staffGuard>;

/** An invitation read, its SMS code sent, and accepted with it: the new member's session. */
function registerInvitationRoutes(r: TZodApp, ctx: TRouteContext) {
  const { db, config, clock, limits, jobs } = ctx;
  const sameOrigin = requireSameOrigin(ctx);
  const smsOn = capabilitiesOn(ctx.capabilities).sms;

  r.post(
    '/api/dashboard/invitations/lookup',
    {
      onRequest: [limits.challenges, sameOrigin],
      schema: {
        operationId: 'dashboardLookUpInvitation',
        summary: 'Read what an invitation link offers',
        body: ZInvitationLookupRequest,
        response: jsonAnswers({ 200: ZInvitationLookupResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await lookUpInvitation(db, request.body.token, clock.now())),
    }),
  );

  r.post(
    '/api/dashboard/invitations/code',
    {
      onRequest: [limits.codeSends, sameOrigin],
      schema: {
        operationId: 'dashboardSendInvitationCode',
        summary: 'Send the SMS code that accepts an invitation',
        body: ZInvitationCodeRequest,
        response: jsonAnswers({ 200: ZCodeSentResponse }),
      },
    },
    async (request, reply) => {
      // Without SMS no code reaches a phone: the call is refused, not queued to fail.
      if (!smsOn) throw capabilityOff(['sms']);
      return {
        success: true as const,
        ...(await sendInvitationCode(
          { db, config, jobs, smsGate: limits.smsSends(request, reply) },
          request.body,
          clock.now(),
        )),
      };
    },
  );

  r.post(
    '/api/dashboard/invitations/accept',
    {
      onRequest: [limits.logins, sameOrigin],
      schema: {
        operationId: 'dashboardAcceptInvitation',
        summary: 'Accept an invitation with its SMS code',
        body: ZInvitationAcceptRequest,
        response: jsonAnswers({ 200: ZDashboardOk }),
      },
    },
    async (request, reply) => {
      const accepted = await acceptInvitation({ db, config }, request.body, clock.now());
      void reply.header('Set-Cookie', sessionCookie(config, accepted.token));
      return { success: true as const };
    },
  );
}

/** A lost passkey replaced: the SMS code sent, then the number proved with it. */
function registerRecoveryRoutes(r: TZodApp, ctx: TRouteContext) {
  const { db, config, clock, limits, jobs } = ctx;
  const sameOrigin = requireSameOrigin(ctx);
  const smsOn = capabilitiesOn(ctx.capabilities).sms;

  r.post(
    '/api/dashboard/recovery/code',
    {
      onRequest: [limits.codeSends, sameOrigin],
      schema: {
        operationId: 'dashboardSendRecoveryCode',
        summary: 'Send the SMS code that replaces a lost passkey',
        body: ZRecoveryCodeRequest,
        response: jsonAnswers({ 200: ZCodeSentResponse }),
      },
    },
    async (request, reply) => {
      // Said to every number alike: whether one is on a team is never told (askRecoveryCode).
      if (!smsOn) throw capabilityOff(['sms']);
      return {
        success: true as const,
        ...(await askRecoveryCode({ db, jobs }, request.body.phone, (targetKey) =>
          limits.recoveryCodeSends(request, reply, targetKey),
        )),
      };
    },
  );

  r.post(
    '/api/dashboard/recovery',
    {
      onRequest: [limits.logins, sameOrigin],
      schema: {
        operationId: 'dashboardRecover',
        summary: 'Prove the number with its SMS code, to make a new passkey',
        body: ZRecoveryRequest,
        response: jsonAnswers({ 200: ZDashboardOk }),
      },
    },
    async (request, reply) => {
      const token = await recoverWithCode(db, config, request.body, clock.now());
      void reply.header('Set-Cookie', sessionCookie(config, token));
      return { success: true as const };
    },
  );
}

/** A passkey made for the dashboard by a session an SMS code opened. */
function registerStaffPasskeyRoutes(r: TZodApp, ctx: TRouteContext, guard: TStaffGuard) {
  const { db, config, clock, limits, jobs } = ctx;

  r.post(
    '/api/dashboard/passkeys/options',
    {
      onRequest: [limits.challenges, guard({ action: null, codeSession: true })],
      schema: {
        operationId: 'dashboardPasskeyOptions',
        summary: 'Options to make a passkey for the dashboard',
        response: jsonAnswers({ 200: ZDashboardPasskeyOptionsResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await passkeyOptions(db, config, staffOf(request), clock.now())),
    }),
  );

  r.post(
    '/api/dashboard/passkeys',
    {
      onRequest: guard({ action: null, codeSession: true }),
      schema: {
        operationId: 'dashboardAddPasskey',
        summary: 'Keep the passkey just made; the session becomes a passkey’s',
        body: ZDashboardPasskeyRequest,
        response: jsonAnswers({ 201: ZPasskeyRegisterResponse }),
      },
    },
    async (request, reply) => {
      // Its SMS go to the member's own number: not counted by the number (ownSmsSends).
      const saved = await addStaffPasskey(
        { db, config, jobs, smsGate: limits.ownSmsSends(request, reply) },
        staffOf(request),
        request.body,
        clock.now(),
      );
      return reply
        .code(201)
        .send({ success: true as const, ...saved, signsFrom: saved.signsFrom.toISOString() });
    },
  );
}

/** Sign-in with a passkey: its options, then the session. */
function registerSignInRoutes(r: TZodApp, ctx: TRouteContext) {
  const { db, config, clock, limits } = ctx;
  const sameOrigin = requireSameOrigin(ctx);

  r.post(
    '/api/dashboard/sign-in/options',
    {
      onRequest: [limits.challenges, sameOrigin],
      schema: {
        operationId: 'dashboardSignInOptions',
        summary: 'Options to sign in with a passkey',
        response: jsonAnswers({ 200: ZSignInOptionsResponse }),
      },
    },
    async () => ({ success: true as const, options: await signInOptions(db, config, clock.now()) }),
  );

  r.post(
    '/api/dashboard/sign-in',
    {
      onRequest: [limits.logins, sameOrigin],
      schema: {
        operationId: 'dashboardSignIn',
        summary: 'Sign in with a passkey',
        body: ZSignInRequest,
        response: jsonAnswers({ 200: ZDashboardOk }),
      },
    },
    async (request, reply) => {
      const token = await signInWithPasskey(db, config, request.body.response, clock.now());
      void reply.header('Set-Cookie', sessionCookie(config, token));
      return { success: true as const };
    },
  );
}

/** The session: who is signed in, and signing out. */
function registerSessionRoutes(r: TZodApp, ctx: TRouteContext, guard: TStaffGuard) {
  const { db, config, clock } = ctx;

  r.get(
    '/api/dashboard/session',
    {
      onRequest: guard({ action: null, codeSession: true }),
      schema: {
        operationId: 'dashboardSession',
        summary: 'Who is signed in, for which merchant, with which role',
        response: jsonAnswers({ 200: ZDashboardSessionResponse }),
      },
    },
    async (request, reply) => {
      const principal = staffOf(request);
      const { staff } = principal;
      void reply.header('Cache-Control', 'no-store');
      return {
        success: true as const,
        fullName: principal.fullName,
        phoneNumber: principal.phoneNumber,
        method: principal.method,
        csrfToken: principal.csrfToken,
        merchant: { merchantId: staff.merchantId, name: staff.merchantName },
        role: staff.role,
        refundLimit: staff.refundLimit,
        actions: [...ROLE_ACTIONS[staff.role]],
        sandbox: ctx.sandbox !== null,
        changesFrom:
          principal.changesFrom && principal.changesFrom > ctx.clock.now()
            ? principal.changesFrom.toISOString()
            : null,
      };
    },
  );

  r.post(
    '/api/dashboard/sign-out',
    {
      onRequest: guard({ action: null, codeSession: true }),
      schema: {
        operationId: 'dashboardSignOut',
        summary: 'Sign out: the session ends at once',
        response: jsonAnswers({ 200: ZDashboardOk }),
      },
    },
    async (request, reply) => {
      const principal = staffOf(request);
      const now = clock.now();
      await endDashboardSession(db, principal.sessionId, now);
      await recordAudit(db, actorOf(principal), { action: 'staff.signed_out' }, now);
      void reply.header('Set-Cookie', clearedSessionCookie(config));
      return { success: true as const };
    },
  );
}

/** Invitations, passkeys, sign-in and out, the session (docs/dashboard.md "Sessions"). */
export const dashboardAuthRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = staffGuard(app, ctx);
  registerInvitationRoutes(r, ctx);
  registerRecoveryRoutes(r, ctx);
  registerStaffPasskeyRoutes(r, ctx, guard);
  registerSignInRoutes(r, ctx);
  registerSessionRoutes(r, ctx, guard);
};
