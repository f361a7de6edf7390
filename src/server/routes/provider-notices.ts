import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  PROVIDER_NOTICE_MAX_BYTES,
  ZProviderNoticeAnswer,
  ZProviderNoticePath,
} from '../../domain/schemas/provider-notices';
import type { TRouteContext } from '../context';
import { AppError } from '../app-error';
import { receiveProviderNotice } from '../services/payments/provider-notices';
import { jsonAnswers } from './responses';

/**
 * POST /api/providers/{name}/notices (docs/payments.md "Provider notices"): a provider's notice,
 * its body kept as the bytes it sent (its signature is over them, never over re-serialised
 * JSON). The configured provider's adapter verifies it; 401 changes nothing. Answered 200 once
 * applied: a provider sends again what it was not answered 2xx, and applying twice changes
 * nothing.
 */
export const providerNoticeRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  // Scoped to this plugin: every body here is raw bytes, whatever its content type says.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, body);
  });
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/providers/:name/notices',
    {
      bodyLimit: PROVIDER_NOTICE_MAX_BYTES,
      onRequest: (request, reply) =>
        ctx.limits.providerNotices.refuseBlockedAddress(request, reply),
      schema: {
        operationId: 'receiveProviderNotice',
        summary: 'Receive a payment provider’s signed notice',
        params: ZProviderNoticePath,
        response: jsonAnswers({ 200: ZProviderNoticeAnswer }),
      },
    },
    async (request) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      try {
        await receiveProviderNotice(ctx, request.params.name, { body, headers: request.headers });
      } catch (error) {
        // A forger guessing signatures is counted, and refused past its limit.
        if (error instanceof AppError && error.code === 'AUTHENTICATION_FAILED') {
          await ctx.limits.providerNotices.recordFailure(request);
        }
        if (error instanceof AppError) throw error;
        // The provider (asked about what its notice names) or the database did not answer: the
        // notice's transaction changed nothing, and the provider sends it again.
        request.log.error({ err: error }, 'A provider notice could not be applied');
        throw new AppError('NOTICE_NOT_APPLIED');
      }
      return { success: true as const };
    },
  );
};
