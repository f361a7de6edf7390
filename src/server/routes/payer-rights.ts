import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { ZRevocationChallengeResponse } from '../../domain/schemas/payer-consents';
import {
  ZErasureRequest,
  ZNameCorrection,
  ZPayerExportParams,
  ZPayerExportResponse,
  ZPayerRightsRequest,
  ZPayerRightsRequestResponse,
  ZPayerRightsResponse,
} from '../../domain/schemas/payer-rights';
import type { TRouteContext } from '../context';
import {
  askErasure,
  askExport,
  correctName,
  listPayerRights,
  readExport,
} from '../services/payer-rights/requests';
import { issueErasureChallenge } from '../services/payer-rights/erasure-signature';
import { listAllPayerRights } from '../services/payer-rights/operator-requests';
import { requireOperator } from './operator-clients';
import { payerOf, requirePasskeyProof, requirePayer } from './payer-guard';
import { jsonAnswers } from './responses';

/*
 * The payer's rights over their data (docs/payer-rights.md): their requests, a copy, an erasure
 * and a correction of their name, limited per payer, and answering a retry as the first (the open
 * request of its kind, or the Idempotency-Key's first answer). A copy and a correction are asked
 * by a session a trusted passkey proved (the page asks for the passkey on PASSKEY_PROOF_REQUIRED
 * and tries again); an erasure is signed by the passkey as it is asked, over a nonce of its own.
 * The copy's SMS link needs no session: its token opens that copy alone, limited per address.
 */
export const payerRightsRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = requirePayer(ctx, { identifyTo: 'ignore' });
  const asking = [guard, ctx.limits.payerRights, requirePasskeyProof];

  r.get(
    '/api/users/data-requests',
    {
      // The page reads it again every few seconds while a request is answered: well under this.
      onRequest: [guard, ctx.limits.payerLists],
      schema: {
        operationId: 'listPayerDataRequests',
        summary: 'List the signed-in payer’s requests about their data, and their name’s rule',
        response: jsonAnswers({ 200: ZPayerRightsResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await listPayerRights(ctx, payerOf(request).payerId)),
    }),
  );

  r.post(
    '/api/users/data-exports',
    {
      onRequest: asking,
      idempotency: {
        scope: (request) => `payer-rights.export:${payerOf(request).payerId}`,
        request: () => ({}),
      },
      schema: {
        operationId: 'requestPayerDataExport',
        summary: 'Ask for a copy of everything held about the payer; a link comes by SMS',
        response: jsonAnswers({ 202: ZPayerRightsRequestResponse }),
      },
    },
    async (request, reply) => {
      reply.code(202);
      return {
        success: true as const,
        request: await askExport(ctx, payerOf(request).payerId),
      };
    },
  );

  r.post(
    '/api/users/data-erasure-challenges',
    {
      onRequest: [ctx.limits.challenges, guard],
      schema: {
        operationId: 'createErasureChallenge',
        summary: 'Get a nonce to sign the erasure of the payer’s data with',
        response: jsonAnswers({ 200: ZRevocationChallengeResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await issueErasureChallenge(ctx, payerOf(request).payerId)),
    }),
  );

  r.post(
    '/api/users/data-erasures',
    {
      // The passkey's signature of this erasure is its proof: a session proven once is not asked.
      onRequest: [guard, ctx.limits.payerRights],
      idempotency: {
        scope: (request) => `payer-rights.erasure:${payerOf(request).payerId}`,
        request: () => ({}),
      },
      schema: {
        operationId: 'requestPayerDataErasure',
        summary: 'Ask for the payer’s data to be erased, but what a law makes us keep',
        description:
          'Signed by the payer’s passkey over a nonce from `POST /api/users/data-erasure-challenges`. ' +
          'Every active consent of the payer is revoked first (its merchant gets ' +
          '`consent.revoked`), and every merchant a consent shared data with gets ' +
          '`payer.erasure_requested`. The answer lists what is kept, and why.',
        body: ZErasureRequest,
        response: jsonAnswers({ 202: ZPayerRightsRequestResponse }),
      },
    },
    async (request, reply) => {
      reply.code(202);
      return {
        success: true as const,
        request: await askErasure(ctx, payerOf(request), request.body),
      };
    },
  );

  r.put(
    '/api/users/name',
    {
      onRequest: asking,
      idempotency: { scope: (request) => `payer-rights.name:${payerOf(request).payerId}` },
      schema: {
        operationId: 'correctPayerName',
        summary: 'Correct the name the payer gave (not one their BVN verified)',
        body: ZNameCorrection,
        response: jsonAnswers({ 200: ZPayerRightsResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await correctName(ctx, payerOf(request).payerId, request.body.fullName)),
    }),
  );

  r.get(
    '/api/payer-exports/:token',
    {
      onRequest: ctx.limits.payerExports,
      schema: {
        operationId: 'getPayerDataExport',
        summary: 'Read the copy of a payer’s data the SMS’s link names, while it lasts',
        params: ZPayerExportParams,
        response: jsonAnswers({ 200: ZPayerExportResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await readExport(ctx, request.params.token)),
    }),
  );

  // The SMS's link itself: the same copy, handed to the payer's browser as the file to keep.
  r.get(
    '/my-data/:token',
    {
      onRequest: ctx.limits.payerExports,
      schema: { hide: true, params: ZPayerExportParams },
    },
    async (request, reply) => {
      const copy = await readExport(ctx, request.params.token);
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${copy.fileName}"`)
        .header('cache-control', 'no-store')
        .send(JSON.stringify(copy.data, null, 2));
    },
  );
};

const ZOperatorPayerRightsResponse = z.object({
  success: z.literal(true),
  requests: z.array(z.extend(ZPayerRightsRequest, { payerId: z.string() })),
});

/** Every payer's requests for the operator, oldest still open first: what is due when. */
export const operatorPayerRightsRoutes: FastifyPluginAsync<
  TRouteContext & { operatorToken: string | undefined }
> = async (app, ctx) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/operator/data-requests',
    {
      preValidation: requireOperator(ctx, ctx.operatorToken),
      schema: {
        operationId: 'listAllPayerDataRequests',
        summary: 'List payers’ requests about their data: open ones by due date, then done ones',
        response: jsonAnswers({ 200: ZOperatorPayerRightsResponse }),
      },
    },
    async () => ({ success: true as const, requests: await listAllPayerRights(ctx.db) }),
  );
};
