import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZGrantChallengeRequest, ZSignedGrant } from '../../domain/schemas/auth';
import type { TConfig } from '../config';
import type { TDb } from '../db/database';
import { issueGrantChallenge, verifySignedGrant } from '../services/signed-grants';
import { payerOf, requirePayer } from './payer-guard';

/**
 * Signed grants, the primitive: a nonce for one signature, and a check of a signed payload.
 * The grant call will verify inside its own flow; this check lets the page (and the sandbox
 * page) prove a signature on its own. Both use the nonce up alike.
 */
export const authGrantSignatureRoutes: FastifyPluginAsync<{ db: TDb; config: TConfig }> = async (
  app,
  deps,
) => {
  const { db, config } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = requirePayer(deps, { identifyTo: 'ignore' });

  r.post(
    '/api/auth/grant-challenges',
    { onRequest: guard, schema: { body: ZGrantChallengeRequest } },
    async (request) => ({
      success: true as const,
      ...(await issueGrantChallenge(db, config, payerOf(request).payerId, request.body.consentId)),
    }),
  );

  r.post(
    '/api/auth/grant-signatures/verify',
    { onRequest: guard, schema: { body: ZSignedGrant } },
    async (request) => {
      const verified = await verifySignedGrant(db, config, payerOf(request).payerId, request.body);
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
