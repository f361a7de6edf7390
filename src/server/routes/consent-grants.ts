import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZDeclineResponse, ZGrantResponse } from '../../domain/schemas/consent-api';
import { ZIdentifier } from '../../domain/schemas/fields';
import { ZGrantCall } from '../../domain/schemas/grant';
import type { TRouteContext } from '../context';
import { declineConsent, grantConsent } from '../services/consents/consent-grants';
import { authenticatePayer } from '../services/identity/payer-sessions';
import { jsonAnswers } from './responses';

/**
 * The grant (spec §7): signed by a signed-in payer's passkey; a bearer token is optional. And the
 * decline of a signed-in payer (spec §2 'Decline').
 */
export const consentGrantRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/consent/:consentId/grant',
    {
      schema: {
        operationId: 'grantConsent',
        summary: 'Grant a consent with a passkey signature',
        params: z.object({ consentId: ZIdentifier }),
        body: ZGrantCall,
        response: jsonAnswers({ 200: ZGrantResponse }),
      },
    },
    async (request) => {
      // A bad token is refused, never taken for an anonymous payer.
      const payer = request.headers.authorization
        ? await authenticatePayer(
            ctx.db,
            ctx.config,
            request.headers.authorization,
            ctx.clock.now(),
          )
        : null;
      return grantConsent(
        ctx,
        request.params.consentId,
        request.body,
        payer?.payerId ?? null,
        payer?.sessionId,
      );
    },
  );

  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/consent/:consentId/decline',
    {
      schema: {
        operationId: 'declineConsent',
        summary: 'Decline a consent',
        params: z.object({ consentId: ZIdentifier }),
        response: jsonAnswers({ 200: ZDeclineResponse }),
      },
    },
    async (request) => {
      const { payerId } = await authenticatePayer(
        ctx.db,
        ctx.config,
        request.headers.authorization,
        ctx.clock.now(),
      );
      return declineConsent(ctx, request.params.consentId, payerId);
    },
  );
};
