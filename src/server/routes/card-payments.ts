import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZCardChargeResponse,
  ZCardCompleteRequest,
  ZCardCompleteResponse,
  ZCardPaymentRequest,
} from '../../domain/schemas/card';
import { ZConsentOtpRequest, ZConsentOtpResponse } from '../../domain/schemas/consent-api';
import { ZIdentifier } from '../../domain/schemas/fields';
import { ZIdempotencyKey } from '../../domain/schemas/merchant-api';
import type { TRouteContext } from '../context';
import { payWithCard, submitCardOtp } from '../services/card-payments';
import { runIdempotentCall } from '../services/idempotency';
import type { TPaymentAccess } from '../services/payment-records';
import { payerOf, requirePayer } from './payer-guard';
import { paymentAccessOf, payerScope } from './payment-access';
import { jsonAnswers } from './responses';

/** How long a retry waits for the first request's answer (the card network may be slow). */
const RETRY_WAIT_MS = 30_000;

const idempotencyHeaders = z.object({ 'idempotency-key': ZIdempotencyKey.optional() });

/** Card payments (spec §7): charge, OTP. The card-linking variants come with account linking. */
export const cardPaymentRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  const charge = async (
    access: TPaymentAccess,
    body: z.infer<typeof ZCardPaymentRequest>,
    key: string | undefined,
  ) =>
    runIdempotentCall(
      ctx.db,
      key ? { scope: payerScope('payments.card', access), key, request: body } : undefined,
      async () => {
        const result = await payWithCard(ctx, {
          paymentId: body.paymentId,
          access,
          cardDetails: body.cardDetails,
          saveCard: body.saveCard,
        });
        return { status: 200, body: result.response };
      },
      { waitMs: RETRY_WAIT_MS },
    );

  api.post(
    '/api/payments/card',
    {
      onRequest: requirePayer(ctx, { identifyTo: 'ignore' }),
      schema: {
        body: ZCardPaymentRequest,
        headers: idempotencyHeaders,
        response: jsonAnswers({ 200: ZCardChargeResponse }),
      },
    },
    async (request, reply) => {
      const answer = await charge(
        { payerId: payerOf(request).payerId },
        request.body,
        request.headers['idempotency-key'],
      );
      return reply.code(answer.status).send(answer.body as never);
    },
  );

  api.post(
    '/api/payments/card/public',
    {
      schema: {
        body: ZCardPaymentRequest.extend({ consentId: ZIdentifier }),
        headers: idempotencyHeaders,
        response: jsonAnswers({ 200: ZCardChargeResponse }),
      },
    },
    async (request, reply) => {
      const { consentId, ...body } = request.body;
      const answer = await charge({ consentId }, body, request.headers['idempotency-key']);
      return reply.code(answer.status).send(answer.body as never);
    },
  );

  api.post(
    '/api/payments/card/complete',
    {
      schema: { body: ZCardCompleteRequest, response: jsonAnswers({ 200: ZCardCompleteResponse }) },
    },
    async (request) => {
      const access = await paymentAccessOf(ctx, request, request.body.consentId);
      return submitCardOtp(ctx, { ...request.body, access });
    },
  );

  api.post(
    '/api/consent/otp',
    { schema: { body: ZConsentOtpRequest, response: jsonAnswers({ 200: ZConsentOtpResponse }) } },
    async (request) => {
      const access = await paymentAccessOf(ctx, request, request.body.consentId);
      await submitCardOtp(ctx, { ...request.body, access });
      return { success: true as const };
    },
  );
};
