import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZCardChargeResponse,
  ZCardCompleteRequest,
  ZCardCompleteResponse,
  ZCardLinkRequest,
  ZCardPaymentRequest,
  ZCardPinRequest,
  ZPublicCardChargeRequest,
  ZSaveCardRequest,
  ZSaveCardResponse,
} from '../../domain/schemas/card';
import { ZConsentOtpRequest, ZConsentOtpResponse } from '../../domain/schemas/consent-api';
import { ZIdentifier } from '../../domain/schemas/fields';
import { ZCancelAttemptRequest, ZCancelAttemptResponse } from '../../domain/schemas/payment';
import type { TRouteContext } from '../context';
import { AppError } from '../app-error';
import { completeCardCharge, linkCard, saveCardOfPayment } from '../services/linking/card-links';
import { attemptViewOf } from '../services/payments/attempt-view';
import {
  cancelThreeDsChallenge,
  payWithCard,
  submitCardOtp,
  submitCardPin,
} from '../services/payments/card-payments';
import type { TPaymentAccess } from '../services/payments/payment-records';
import { payerOf, requirePayer } from './payer-guard';
import { paymentAccessOf, payerScope } from './payment-access';
import { jsonAnswers } from './responses';
import type { TZodApp } from './zod-app';
import { countingOwnerLookups } from './owner-lookups';

/** The card call's two bodies (spec §7): link a card to an account, or pay a payment. */
const ZCardChargeBody = z.union([ZCardLinkRequest, ZCardPaymentRequest]);
type TCardChargeBody = z.infer<typeof ZCardChargeBody>;

const isLinkRequest = (body: TCardChargeBody): body is z.infer<typeof ZCardLinkRequest> =>
  'saveToAccount' in body;

/** The card's limits a charge, or a PIN, answers to beyond its payment. */
const cardLimits = (
  ctx: Pick<TRouteContext, 'limits'>,
  request: FastifyRequest,
  reply: FastifyReply,
) => ({
  refuseBlockedCard: (cardKey: string) =>
    ctx.limits.cardDeclines.refuseBlockedCard(request, reply, cardKey),
  recordDecline: (cardKey: string) => ctx.limits.cardDeclines.recordDecline(request, cardKey),
});

/** A card charge: the signed-in payer links a card to an account, or anyone pays a payment. */
const charge = async (
  ctx: TRouteContext,
  request: FastifyRequest,
  reply: FastifyReply,
  access: TPaymentAccess,
  body: TCardChargeBody,
) => {
  if (isLinkRequest(body)) {
    // spec §6: a new card requires authentication before linking.
    if (!('payerId' in access)) throw new AppError('SIGN_IN_REQUIRED');
    return linkCard(countingOwnerLookups(ctx, request, reply), access.payerId, body);
  }
  const result = await payWithCard(ctx, {
    paymentId: body.paymentId,
    access,
    cardDetails: body.cardDetails,
    saveCard: body.saveCard,
    limits: cardLimits(ctx, request, reply),
  });
  return result.response;
};

/** Who completes a charge: found before its Idempotency-Key is claimed, as its scope. */
type TCompleters = WeakMap<FastifyRequest, TPaymentAccess>;

/** The payer or consent link found to complete `request`'s charge. */
const completerOf = (completing: TCompleters, request: FastifyRequest) => {
  const access = completing.get(request);
  if (!access) throw new Error('The completing payer is found before the call runs');
  return access;
};

/** A card charge, by a signed-in payer or with a consent link. */
function registerCardChargeRoutes(api: TZodApp, ctx: TRouteContext) {
  api.post(
    '/api/payments/card',
    {
      onRequest: [requirePayer(ctx, { identifyTo: 'ignore' }), ctx.limits.cardCharges],
      // A link asks the account's bank who holds it: counted like an account search.
      preHandler: async (request, reply) => {
        if (isLinkRequest(request.body)) await ctx.limits.accountSearches.call(api, request, reply);
      },
      idempotency: {
        scope: (request) => payerScope('payments.card', { payerId: payerOf(request).payerId }),
      },
      schema: {
        operationId: 'chargeCard',
        summary: 'Charge a card, to pay a payment or to link it to an account',
        body: ZCardChargeBody,
        response: jsonAnswers({ 200: ZCardChargeResponse }),
      },
    },
    async (request, reply) =>
      charge(ctx, request, reply, { payerId: payerOf(request).payerId }, request.body),
  );

  api.post(
    '/api/payments/card/public',
    {
      onRequest: ctx.limits.cardCharges,
      // spec §6: linking a card needs sign-in; the consent link pays, it does not link.
      preHandler: async (request) => {
        if (isLinkRequest(request.body)) throw new AppError('SIGN_IN_REQUIRED');
      },
      idempotency: {
        scope: (request) => payerScope('payments.card', { consentId: request.body.consentId }),
        // The charge as the signed-in call's: the consent is in the scope.
        request: ({ body: { consentId: _consentId, ...body } }) => body,
      },
      schema: {
        operationId: 'chargeCardWithConsentLink',
        summary: 'Charge a card to pay a payment without signing in',
        body: ZPublicCardChargeRequest,
        response: jsonAnswers({ 200: ZCardChargeResponse }),
      },
    },
    async (request, reply) => {
      const { consentId, ...body } = request.body;
      return charge(ctx, request, reply, { consentId }, body);
    },
  );
}

/** A charge completed with its OTP, or given the PIN it asked for, by the payer who made it. */
function registerCardCompletionRoutes(api: TZodApp, ctx: TRouteContext, completing: TCompleters) {
  api.post(
    '/api/payments/card/complete',
    {
      preHandler: async (request) => {
        completing.set(request, await paymentAccessOf(ctx, request, request.body.consentId));
      },
      idempotency: {
        scope: (request) => payerScope('payments.card.complete', completerOf(completing, request)),
      },
      schema: {
        operationId: 'completeCardCharge',
        summary: 'Complete a card charge with its OTP',
        body: ZCardCompleteRequest,
        response: jsonAnswers({ 200: ZCardCompleteResponse }),
      },
    },
    async (request) =>
      completeCardCharge(ctx, { ...request.body, access: completerOf(completing, request) }),
  );

  api.post(
    '/api/payments/card/pin',
    {
      onRequest: ctx.limits.cardCharges,
      preHandler: async (request) => {
        completing.set(request, await paymentAccessOf(ctx, request, request.body.consentId));
      },
      idempotency: {
        scope: (request) => payerScope('payments.card.pin', completerOf(completing, request)),
      },
      schema: {
        operationId: 'submitCardPin',
        summary: 'Give the PIN a card payment’s charge asked for',
        body: ZCardPinRequest,
        response: jsonAnswers({ 200: ZCardChargeResponse }),
      },
    },
    async (request, reply) => {
      const { paymentId, cardDetails, chargeToken } = request.body;
      const result = await submitCardPin(ctx, {
        paymentId,
        access: completerOf(completing, request),
        cardDetails,
        ...(chargeToken ? { chargeToken } : {}),
        limits: cardLimits(ctx, request, reply),
      });
      return result.response;
    },
  );
}

/** A paid payment's card saved to the signed-in payer's account. */
function registerSaveCardRoute(api: TZodApp, ctx: TRouteContext) {
  api.post(
    '/api/payments/save-card',
    {
      onRequest: [
        requirePayer(ctx, { identifyTo: 'ignore' }),
        // Saving asks the account's bank who holds it: counted like an account search.
        ctx.limits.accountSearches,
      ],
      idempotency: {
        scope: (request) => payerScope('payments.save-card', { payerId: payerOf(request).payerId }),
      },
      schema: {
        operationId: 'saveCard',
        summary: 'Save a paid payment’s card to an account',
        body: ZSaveCardRequest,
        response: jsonAnswers({ 200: ZSaveCardResponse }),
      },
    },
    async (request, reply) =>
      saveCardOfPayment(
        countingOwnerLookups(ctx, request, reply),
        payerOf(request).payerId,
        request.body,
      ),
  );
}

/** The card's issuer's challenge of a payment: its 3DS cancelled, or its OTP given. */
function registerCardChallengeRoutes(api: TZodApp, ctx: TRouteContext) {
  api.post(
    '/api/payments/:paymentId/attempts/current/cancel',
    {
      schema: {
        operationId: 'cancelPaymentAttempt',
        summary: 'Cancel a payment’s current attempt',
        params: z.object({ paymentId: ZIdentifier }),
        body: ZCancelAttemptRequest,
        response: jsonAnswers({ 200: ZCancelAttemptResponse }),
      },
    },
    async (request) => {
      const access = await paymentAccessOf(ctx, request, request.body.consentId);
      const ended = await cancelThreeDsChallenge(ctx, {
        paymentId: request.params.paymentId,
        access,
        ...(request.body.chargeToken ? { chargeToken: request.body.chargeToken } : {}),
      });
      return { success: true as const, attempt: attemptViewOf(ended) };
    },
  );

  api.post(
    '/api/consent/otp',
    {
      schema: {
        operationId: 'submitCardOtp',
        summary: 'Submit a card payment’s OTP',
        body: ZConsentOtpRequest,
        response: jsonAnswers({ 200: ZConsentOtpResponse }),
      },
    },
    async (request) => {
      const access = await paymentAccessOf(ctx, request, request.body.consentId);
      const { status } = await submitCardOtp(ctx, { ...request.body, access });
      return { success: true as const, ...(status ? { status } : {}) };
    },
  );
}

/**
 * Card calls (spec §7): pay a payment by card, link a card to an account by a test charge
 * (signed-in payers only, spec §6), the PIN a payment's charge asked for (ours), an OTP for
 * either, and save a paid payment's card. Each call but the OTP runs once per Idempotency-Key of
 * its caller (routes/idempotency.ts).
 */
export const cardPaymentRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  registerCardChargeRoutes(api, ctx);
  registerCardCompletionRoutes(api, ctx, new WeakMap());
  registerSaveCardRoute(api, ctx);
  registerCardChallengeRoutes(api, ctx);
};
