import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZPayerConsentParams,
  ZPayerConsentsQuery,
  ZPayerConsentsResponse,
  ZRevocationChallengeResponse,
  ZRevokeConsentRequest,
  ZRevokeConsentResponse,
} from '../../domain/schemas/payer-consents';
import type { TRouteContext } from '../context';
import {
  issueRevocationChallenge,
  listPayerConsents,
  revokeConsent,
} from '../services/consents/payer-consents';
import { payerOf, requirePayer } from './payer-guard';
import { jsonAnswers } from './responses';

/**
 * The signed-in payer's own consents (docs/payer-consents.md): the list, a nonce for one
 * revocation signature, and the passkey-signed revocation.
 */
export const payerConsentRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = requirePayer(ctx, { identifyTo: 'ignore' });

  r.get(
    '/api/users/consents',
    {
      onRequest: guard,
      schema: {
        querystring: ZPayerConsentsQuery,
        response: jsonAnswers({ 200: ZPayerConsentsResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await listPayerConsents(ctx.db, payerOf(request).payerId, request.query)),
    }),
  );

  r.post(
    '/api/users/consents/:consentId/revocation-challenges',
    {
      onRequest: [ctx.limits.challenges, guard],
      schema: {
        params: ZPayerConsentParams,
        response: jsonAnswers({ 200: ZRevocationChallengeResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await issueRevocationChallenge(ctx, payerOf(request).payerId, request.params.consentId)),
    }),
  );

  r.post(
    '/api/users/consents/:consentId/revoke',
    {
      onRequest: guard,
      schema: {
        params: ZPayerConsentParams,
        body: ZRevokeConsentRequest,
        response: jsonAnswers({ 200: ZRevokeConsentResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      consent: await revokeConsent(ctx, payerOf(request), request.params.consentId, request.body),
    }),
  );
};
