import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZClientIdParams } from '../../domain/schemas/merchant-client';
import {
  ZAuditQuery,
  ZAuditResponse,
  ZDashboardOk,
  ZInvitationIdParams,
  ZInviteRequest,
  ZInviteResponse,
  ZOwnerInvitationRequest,
  ZOwnerInvitationResponse,
  ZStaffChangeRequest,
  ZStaffIdParams,
  ZTeamResponse,
} from '../../domain/schemas/dashboard';
import type { TRouteContext } from '../context';
import { capabilitiesOn } from '../providers/capability-lines';
import { capabilityOff } from '../providers/off';
import { actorOf, listAudit, operatorActor } from '../services/dashboard/audit';
import {
  changeStaff,
  createInvitation,
  inviteByPhone,
  readTeam,
  removeStaff,
  withdrawInvitation,
} from '../services/dashboard/staff';
import { normalisePhone } from '../services/identity/phone-codes';
import { readClient } from '../services/merchants/merchant-clients';
import { staffGuard, staffOf } from './dashboard-guard';
import { requireOperator } from './operator-clients';
import { jsonAnswers } from './responses';
import type { TZodApp } from './zod-app';

const AUDIT_PAGE = 50;

type TStaffGuard = ReturnType<typeof staffGuard>;

/** The team as it stands, and invitations sent or withdrawn. */
function registerTeamInvitationRoutes(r: TZodApp, ctx: TRouteContext, guard: TStaffGuard) {
  const { db, config, clock, jobs, limits } = ctx;
  const owner = guard({ action: 'team.manage' });
  const smsOn = capabilitiesOn(ctx.capabilities).sms;

  r.get(
    '/api/dashboard/team',
    {
      onRequest: owner,
      schema: {
        operationId: 'dashboardTeam',
        summary: 'The team and its open invitations',
        response: jsonAnswers({ 200: ZTeamResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await readTeam(db, staffOf(request).staff.merchantId, clock.now())),
    }),
  );

  r.post(
    '/api/dashboard/team/invitations',
    {
      onRequest: owner,
      schema: {
        operationId: 'dashboardInvite',
        summary: 'Invite a person by phone; the link goes to them by SMS',
        body: ZInviteRequest,
        response: jsonAnswers({ 201: ZInviteResponse }),
      },
    },
    async (request, reply) => {
      // The link goes by SMS, and its holder proves the number by an SMS code: without SMS the
      // invitation could neither arrive nor be accepted (an operator's link needs no SMS to go).
      if (!smsOn) throw capabilityOff(['sms']);
      const principal = staffOf(request);
      const made = await inviteByPhone(
        { db, config, jobs, smsGate: limits.smsSends(request, reply) },
        actorOf(principal),
        {
          phone: request.body.phone,
          role: request.body.role,
          refundLimit: request.body.refundLimit ?? null,
          merchantName: principal.staff.merchantName,
        },
        clock.now(),
      );
      return reply.code(201).send({ success: true as const, ...made });
    },
  );

  r.delete(
    '/api/dashboard/team/invitations/:invitationId',
    {
      onRequest: owner,
      schema: {
        operationId: 'dashboardWithdrawInvitation',
        summary: 'Withdraw an invitation not yet accepted',
        params: ZInvitationIdParams,
        response: jsonAnswers({ 200: ZDashboardOk }),
      },
    },
    async (request) => {
      const who = actorOf(staffOf(request));
      await withdrawInvitation(db, who, request.params.invitationId, clock.now());
      return { success: true as const };
    },
  );
}

/** A member's role changed, or the member removed; and the audit log read. */
function registerTeamMemberRoutes(r: TZodApp, ctx: TRouteContext, guard: TStaffGuard) {
  const { db, clock } = ctx;
  const owner = guard({ action: 'team.manage' });

  r.put(
    '/api/dashboard/team/:staffId',
    {
      onRequest: owner,
      schema: {
        operationId: 'dashboardChangeStaff',
        summary: 'Change a staff member’s role and refund limit',
        params: ZStaffIdParams,
        body: ZStaffChangeRequest,
        response: jsonAnswers({ 200: ZDashboardOk }),
      },
    },
    async (request) => {
      const who = actorOf(staffOf(request));
      await changeStaff(db, who, request.params.staffId, request.body, clock.now());
      return { success: true as const };
    },
  );

  r.delete(
    '/api/dashboard/team/:staffId',
    {
      onRequest: owner,
      schema: {
        operationId: 'dashboardRemoveStaff',
        summary: 'Take a staff member off the team; their sessions end',
        params: ZStaffIdParams,
        response: jsonAnswers({ 200: ZDashboardOk }),
      },
    },
    async (request) => {
      await removeStaff(db, actorOf(staffOf(request)), request.params.staffId, clock.now());
      return { success: true as const };
    },
  );

  r.get(
    '/api/dashboard/audit',
    {
      onRequest: guard({ action: 'audit.read' }),
      schema: {
        operationId: 'dashboardAudit',
        summary: 'The audit log, newest first',
        querystring: ZAuditQuery,
        response: jsonAnswers({ 200: ZAuditResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await listAudit(db, staffOf(request).staff.merchantId, {
        before: request.query.before,
        limit: AUDIT_PAGE,
      })),
    }),
  );
}

/** The owner's team and audit log (docs/dashboard.md "Team", "Audit log"). */
export const dashboardTeamRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = staffGuard(app, ctx);
  registerTeamInvitationRoutes(r, ctx, guard);
  registerTeamMemberRoutes(r, ctx, guard);
};

/** The operator's owner invitation (`npm run client:create` prints it). */
export const dashboardOperatorRoutes: FastifyPluginAsync<
  TRouteContext & { operatorToken: string | undefined }
> = async (app, ctx) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/operator/clients/:clientId/owner-invitations',
    {
      preValidation: requireOperator(ctx, ctx.operatorToken),
      schema: {
        operationId: 'operatorInviteOwner',
        summary: 'Invite the owner of a client’s merchant to the dashboard',
        params: ZClientIdParams,
        body: ZOwnerInvitationRequest,
        response: jsonAnswers({ 201: ZOwnerInvitationResponse }),
      },
    },
    async (request, reply) => {
      const now = ctx.clock.now();
      const { merchantId } = await readClient(ctx.db, request.params.clientId, now);
      const made = await createInvitation(
        ctx.db,
        ctx.config,
        {
          merchantId,
          role: 'owner',
          refundLimit: null,
          phoneNumber: request.body.phone ? normalisePhone(request.body.phone) : null,
          invitedBy: operatorActor(merchantId),
        },
        now,
      );
      return reply.code(201).send({ success: true as const, ...made });
    },
  );
};
