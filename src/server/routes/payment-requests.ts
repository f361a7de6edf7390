import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZDeclineInvitationResponse } from '../../domain/schemas/auth';
import {
  ZConsentCreationPayload,
  ZConsentCreationResponse,
  ZPaymentRequestReadResponse,
} from '../../domain/schemas/consent-api';
import { ZIdentifier } from '../../domain/schemas/fields';
import type { TRouteContext } from '../context';
import {
  createPaymentRequest,
  declinePaymentRequest,
  readPaymentRequest,
} from '../services/consents/payment-requests';
import { ZIdempotencyHeaders } from './idempotency';
import { payerOf, requirePayer } from './payer-guard';
import { jsonAnswers } from './responses';

// spec §7 writes {id}: the consent id of the payment request.
const ZPaymentRequestParams = z.object({ paymentRequestId: ZIdentifier });

/**
 * Payment requests between payers (spec §7; docs/payment-requests.md): a signed-in payer asks
 * another for a consent to pay them, anyone reads who asked, and the payer asked declines.
 */
export const paymentRequestRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = requirePayer(ctx, { identifyTo: 'ignore' });

  r.post(
    '/api/consent',
    {
      onRequest: [guard, ctx.limits.paymentRequests],
      schema: {
        operationId: 'createPaymentRequest',
        summary: 'Ask another payer for a consent to pay you',
        body: ZConsentCreationPayload,
        headers: ZIdempotencyHeaders,
        // 201: created; 200: the first answer to a retry with the same Idempotency-Key.
        response: jsonAnswers({ 200: ZConsentCreationResponse, 201: ZConsentCreationResponse }),
      },
    },
    async (request, reply) => {
      const created = await createPaymentRequest(
        ctx,
        payerOf(request).payerId,
        request.body,
        request.headers['idempotency-key'],
      );
      return reply
        .code(created.created ? 201 : 200)
        .send({ success: true as const, consentId: created.consentId, url: created.url });
    },
  );

  r.get(
    '/api/consent/payment-request/:paymentRequestId',
    {
      schema: {
        operationId: 'getPaymentRequest',
        summary: 'Read a payment request and who sent it',
        params: ZPaymentRequestParams,
        response: jsonAnswers({ 200: ZPaymentRequestReadResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      data: { counterparty: await readPaymentRequest(ctx.db, request.params.paymentRequestId) },
    }),
  );

  r.post(
    '/api/users/decline-invitation/:paymentRequestId',
    {
      onRequest: [guard, ctx.limits.paymentRequests],
      schema: {
        operationId: 'declinePaymentRequest',
        summary: 'Decline a payment request',
        params: ZPaymentRequestParams,
        response: jsonAnswers({ 200: ZDeclineInvitationResponse }),
      },
    },
    async (request) =>
      declinePaymentRequest(ctx, request.params.paymentRequestId, payerOf(request).payerId),
  );
};
