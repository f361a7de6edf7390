import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZBvnLookupsQuery,
  ZBvnLookupsResponse,
  ZComplaintMoveRequest,
  ZComplaintParams,
  ZComplaintResponse,
  ZComplaintsResponse,
  ZRaiseComplaintRequest,
} from '../../domain/schemas/payer-protections';
import type { TRouteContext } from '../context';
import { listBvnLookups } from '../services/payer-rights/bvn-lookups';
import {
  listOpenComplaints,
  listPayerComplaints,
  moveComplaint,
  raiseComplaint,
} from '../services/payer-rights/complaints';
import { requireOperator } from './operator-clients';
import { payerScope } from './payment-access';
import { payerOf, requirePayer } from './payer-guard';
import { jsonAnswers } from './responses';
import type { TZodApp } from './zod-app';

/*
 * What the payer can hold us to (docs/payer-consents.md "Who looked at your BVN", "Complaints"):
 * the signed-in payer's list of lookups made with their BVN, their complaints about payments and
 * a new one; and the operator's list of open complaints and their moves.
 */

/** The operator's side: the open complaints, acknowledged and resolved. */
function registerOperatorComplaintRoutes(
  r: TZodApp,
  ctx: TRouteContext,
  token: string | undefined,
) {
  const preValidation = requireOperator(ctx, token);
  r.get(
    '/api/operator/complaints',
    {
      preValidation,
      schema: {
        operationId: 'listOpenComplaints',
        summary: 'List the payers’ complaints not yet resolved, oldest first',
        response: jsonAnswers({ 200: ZComplaintsResponse }),
      },
    },
    async () => ({ success: true as const, complaints: await listOpenComplaints(ctx.db) }),
  );
  for (const edge of ['acknowledge', 'resolve'] as const) {
    // Idempotent by its state: a repeat of the move answers the complaint as it stands.
    r.post(
      `/api/operator/complaints/:complaintId/${edge}`,
      {
        preValidation,
        schema: {
          operationId: edge === 'acknowledge' ? 'acknowledgeComplaint' : 'resolveComplaint',
          summary:
            edge === 'acknowledge'
              ? 'Acknowledge a payer’s complaint'
              : 'Resolve a payer’s complaint, saying what was done',
          params: ZComplaintParams,
          body: ZComplaintMoveRequest,
          response: jsonAnswers({ 200: ZComplaintResponse }),
        },
      },
      async (request) => ({
        success: true as const,
        complaint: await moveComplaint(ctx, request.params.complaintId, edge, request.body.note),
      }),
    );
  }
}

export const payerComplaintRoutes: FastifyPluginAsync<
  TRouteContext & { operatorToken: string | undefined }
> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = requirePayer(ctx, { identifyTo: 'ignore' });

  r.get(
    '/api/users/bvn-lookups',
    {
      onRequest: [guard, ctx.limits.payerLists],
      schema: {
        operationId: 'listBvnLookups',
        summary: 'List the lookups made with the signed-in payer’s BVN or accounts, newest first',
        querystring: ZBvnLookupsQuery,
        response: jsonAnswers({ 200: ZBvnLookupsResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await listBvnLookups(ctx, payerOf(request).payerId, request.query)),
    }),
  );

  r.get(
    '/api/users/complaints',
    {
      onRequest: [guard, ctx.limits.payerLists],
      schema: {
        operationId: 'listPayerComplaints',
        summary: 'List the signed-in payer’s complaints, newest first',
        response: jsonAnswers({ 200: ZComplaintsResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      complaints: await listPayerComplaints(ctx.db, payerOf(request).payerId),
    }),
  );

  r.post(
    '/api/users/complaints',
    {
      onRequest: [guard, ctx.limits.complaints],
      idempotency: {
        scope: (request) => payerScope('complaints', { payerId: payerOf(request).payerId }),
      },
      schema: {
        operationId: 'raiseComplaint',
        summary: 'Raise a complaint about one of the signed-in payer’s payments',
        description:
          'Answers a reference at once, with the targets it is to be acknowledged and resolved ' +
          'by; the merchant is told (webhook `payment.complaint_raised`) and the operator lists ' +
          'it. A payment has one open complaint: raising it again answers that one (200).',
        body: ZRaiseComplaintRequest,
        response: jsonAnswers({ 200: ZComplaintResponse, 201: ZComplaintResponse }),
      },
    },
    async (request, reply) => {
      const { complaint, created } = await raiseComplaint(
        ctx,
        payerOf(request).payerId,
        request.body,
      );
      reply.code(created ? 201 : 200);
      return { success: true as const, complaint };
    },
  );

  registerOperatorComplaintRoutes(r, ctx, ctx.operatorToken);
};
