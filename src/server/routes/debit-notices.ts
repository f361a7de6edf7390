import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZDebitNoticeParams, ZDebitNoticeResponse } from '../../domain/schemas/debit-notices';
import type { TRouteContext } from '../context';
import { readDebitNotice } from '../services/payments/debit-notices';
import { skipByNotice } from '../services/payments/skipped-payments';
import { jsonAnswers } from './responses';

/**
 * The debit notice's link (docs/payer-consents.md "Told before every debit"), which needs no
 * session: the token names one scheduled debit and is sealed, so it reads and skips that debit
 * alone. Limited by address, as a guessed token is the only other use.
 */
export const debitNoticeRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/debit-notices/:token',
    {
      onRequest: ctx.limits.debitNotices,
      schema: {
        operationId: 'getDebitNotice',
        summary: 'Read the debit an SMS notice’s link names',
        description:
          'The payer is told by SMS at least DEBIT_NOTICE_HOURS before each scheduled debit; ' +
          'the link opens this debit, with no sign-in.',
        params: ZDebitNoticeParams,
        response: jsonAnswers({ 200: ZDebitNoticeResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      notice: await readDebitNotice(ctx, request.params.token),
    }),
  );

  r.post(
    '/api/debit-notices/:token/skip',
    {
      onRequest: ctx.limits.debitNotices,
      idempotency: {
        scope: (request) => `debit-notices.skip:${request.params.token}`,
        // No body: the token in the scope is the whole request.
        request: (request) => request.params,
      },
      schema: {
        operationId: 'skipDebit',
        summary: 'Skip the one debit an SMS notice’s link names',
        description:
          'Payers can skip a scheduled debit before it is collected: it is never collected, ' +
          'its payment reads `skipped`, and the merchant gets `payment.skipped`. Only a debit ' +
          'nobody has started to collect: otherwise 409 PAYMENT_NOT_SKIPPABLE, a second skip too.',
        params: ZDebitNoticeParams,
        response: jsonAnswers({ 200: ZDebitNoticeResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      notice: await skipByNotice(ctx, request.params.token),
    }),
  );
};
