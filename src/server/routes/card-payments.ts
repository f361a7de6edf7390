import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZCardChargeResponse,
  ZCardCompleteRequest,
  ZCardCompleteResponse,
  ZCardLinkRequest,
  ZCardPaymentRequest,
  ZPublicCardChargeRequest,
  ZSaveCardRequest,
  ZSaveCardResponse,
} from '../../domain/schemas/card';
import { ZConsentOtpRequest, ZConsentOtpResponse } from '../../domain/schemas/consent-api';
import { ZIdempotencyKey } from '../../domain/schemas/merchant-api';
import type { TRouteContext } from '../context';
import { AppError } from '../services/app-error';
import { completeCardCharge, linkCard, saveCardOfPayment } from '../services/card-links';
import { payWithCard, submitCardOtp } from '../services/card-payments';
import { BANK_CALL_RETRY_WAIT_MS, runIdempotentCall } from '../services/idempotency';
import type { TPaymentAccess } from '../services/payment-records';
import { payerOf, requirePayer } from './payer-guard';
import { paymentAccessOf, payerScope } from './payment-access';
import { jsonAnswers } from './responses';

const idempotencyHeaders = z.object({ 'idempotency-key': ZIdempotencyKey.optional() });

/** The card call's two bodies (spec §7): link a card to an account, or pay a payment. */
const ZCardChargeBody = z.union([ZCardLinkRequest, ZCardPaymentRequest]);
type TCardChargeBody = z.infer<typeof ZCardChargeBody>;

const isLinkRequest = (body: TCardChargeBody): body is z.infer<typeof ZCardLinkRequest> =>
  'saveToAccount' in body;

/**
 * Card calls (spec §7): pay a payment by card, link a card to an account by a test charge
 * (signed-in payers only, spec §6), an OTP for either, and save a paid payment's card.
 */
export const cardPaymentRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** Runs a call once per Idempotency-Key of its caller; a retry gets the first answer. */
  const once = (
    call: string,
    access: TPaymentAccess,
    request: unknown,
    key: string | undefined,
    run: () => Promise<Record<string, unknown>>,
  ) =>
    runIdempotentCall(
      ctx.db,
      key ? { scope: payerScope(call, access), key, request } : undefined,
      async () => ({ status: 200, body: await run() }),
      { waitMs: BANK_CALL_RETRY_WAIT_MS },
    );

  const charge = (access: TPaymentAccess, body: TCardChargeBody, key: string | undefined) =>
    once('payments.card', access, body, key, async () => {
      if (isLinkRequest(body)) {
        // spec §6: a new card requires authentication before linking.
        if (!('payerId' in access)) throw new AppError('SIGN_IN_REQUIRED');
        return linkCard(ctx, access.payerId, body);
      }
      const result = await payWithCard(ctx, {
        paymentId: body.paymentId,
        access,
        cardDetails: body.cardDetails,
        saveCard: body.saveCard,
      });
      return result.response;
    });

  api.post(
    '/api/payments/card',
    {
      onRequest: requirePayer(ctx, { identifyTo: 'ignore' }),
      // A link asks the account's bank who holds it: counted like an account search.
      preHandler: async (request, reply) => {
        if (isLinkRequest(request.body)) await ctx.limits.accountSearches.call(app, request, reply);
      },
      schema: {
        body: ZCardChargeBody,
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
        body: ZPublicCardChargeRequest,
        headers: idempotencyHeaders,
        response: jsonAnswers({ 200: ZCardChargeResponse }),
      },
    },
    async (request, reply) => {
      const { consentId, ...body } = request.body;
      // spec §6: linking a card needs sign-in; the consent link pays, it does not link.
      if (isLinkRequest(body)) throw new AppError('SIGN_IN_REQUIRED');
      const answer = await charge({ consentId }, body, request.headers['idempotency-key']);
      return reply.code(answer.status).send(answer.body as never);
    },
  );

  api.post(
    '/api/payments/card/complete',
    {
      schema: {
        body: ZCardCompleteRequest,
        headers: idempotencyHeaders,
        response: jsonAnswers({ 200: ZCardCompleteResponse }),
      },
    },
    async (request, reply) => {
      const access = await paymentAccessOf(ctx, request, request.body.consentId);
      const answer = await once(
        'payments.card.complete',
        access,
        request.body,
        request.headers['idempotency-key'],
        () => completeCardCharge(ctx, { ...request.body, access }),
      );
      return reply.code(answer.status).send(answer.body as never);
    },
  );

  api.post(
    '/api/payments/save-card',
    {
      onRequest: [
        requirePayer(ctx, { identifyTo: 'ignore' }),
        // Saving asks the account's bank who holds it: counted like an account search.
        ctx.limits.accountSearches,
      ],
      schema: {
        body: ZSaveCardRequest,
        headers: idempotencyHeaders,
        response: jsonAnswers({ 200: ZSaveCardResponse }),
      },
    },
    async (request, reply) => {
      const { payerId } = payerOf(request);
      const answer = await once(
        'payments.save-card',
        { payerId },
        request.body,
        request.headers['idempotency-key'],
        () => saveCardOfPayment(ctx, payerId, request.body),
      );
      return reply.code(answer.status).send(answer.body as never);
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
