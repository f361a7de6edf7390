import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZGrantChallengeRequest,
  ZGrantChallengeResponse,
  ZGrantSignatureResponse,
  ZSignedGrant,
} from '../../domain/schemas/auth';
import type { TRouteContext } from '../context';
import { issueGrantChallenge, verifySignedGrant } from '../services/identity/signed-grants';
import { payerOf, requirePayer } from './payer-guard';
import { jsonAnswers } from './responses';

/**
 * Signed grants, the primitive: a nonce for one signature, and a check of a signed payload.
 * The grant call will verify inside its own flow; this check lets the page (and the sandbox
 * page) prove a signature on its own. Both use the nonce up alike.
 */
export const authGrantSignatureRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const { db, config, clock, limits } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = requirePayer(ctx, { identifyTo: 'ignore' });

  r.post(
    '/api/auth/grant-challenges',
    {
      onRequest: [limits.challenges, guard],
      schema: {
        operationId: 'createGrantChallenge',
        summary: 'Get a nonce to sign a consent’s grant with',
        body: ZGrantChallengeRequest,
        response: jsonAnswers({ 200: ZGrantChallengeResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await issueGrantChallenge(
        db,
        config,
        payerOf(request).payerId,
        request.body.consentId,
        clock.now(),
      )),
    }),
  );

  r.post(
    '/api/auth/grant-signatures/verify',
    {
      onRequest: guard,
      schema: {
        operationId: 'verifyGrantSignature',
        summary: 'Verify a passkey-signed grant',
        body: ZSignedGrant,
        response: jsonAnswers({ 200: ZGrantSignatureResponse }),
      },
    },
    async (request) => {
      const verified = await verifySignedGrant(
        db,
        config,
        payerOf(request).payerId,
        request.body,
        clock.now(),
      );
      return {
        success: true as const,
        verified: true as const,
        digest: verified.digest,
        credentialId: verified.credentialId,
        userId: verified.userId,
        signedAt: verified.signedAt.toISOString(),
      };
    },
  );
};
