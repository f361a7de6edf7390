import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZChipPurchaseRequest,
  ZChipPurchaseResponse,
  ZPaymentTerminalsQuery,
  ZPaymentTerminalsResponse,
  ZTerminalFetchKeysRequest,
  ZTerminalFetchKeysResponse,
  ZTerminalPushRequest,
  ZTerminalPushResponse,
} from '../../domain/schemas/card-terminal';
import type { TRouteContext } from '../context';
import { AppError } from '../app-error';
import { chipPurchaseOnce, fetchTerminalKeys } from '../services/payments/chip-purchases';
import {
  pushLimitKey,
  pushToTerminal,
  terminalsForPayment,
} from '../services/payments/terminal-pushes';
import { paymentAccessOf } from './payment-access';
import { jsonAnswers } from './responses';

/**
 * The chip-card terminal's acquirer calls (spec §7 card-terminal/raven; docs/terminal.md): a
 * registered reader's ids, and a chip purchase that pays a consent's immediate payment. A
 * purchase is made by the signed-in payer or the holder of the consent link, as a card payment.
 */
export const cardTerminalRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/card-terminal/raven/fetch-keys',
    {
      onRequest: ctx.limits.terminalCalls,
      schema: {
        operationId: 'getTerminalKeys',
        summary: 'Get a card reader’s terminal and merchant ids',
        body: ZTerminalFetchKeysRequest,
        response: jsonAnswers({ 200: ZTerminalFetchKeysResponse }),
      },
    },
    async (request) => fetchTerminalKeys(ctx, request.body.serial),
  );

  api.post(
    '/api/card-terminal/raven/chip-purchase',
    {
      onRequest: ctx.limits.terminalCalls,
      // A body the reader garbled answers the terminal's own words (spec §8), not a field list.
      attachValidation: true,
      schema: {
        operationId: 'payWithChipCard',
        summary: 'Pay a consent’s immediate payment with a chip card',
        body: ZChipPurchaseRequest,
        response: jsonAnswers({ 200: ZChipPurchaseResponse }),
      },
    },
    async (request, reply) => {
      if (request.validationError) throw new AppError('TERMINAL_INVALID_FORMAT');
      const access = await paymentAccessOf(ctx, request, request.body.consentId);
      const answer = await chipPurchaseOnce(ctx, request.body, access);
      return reply.code(answer.status).send(answer.body);
    },
  );

  // The terminals the payer may choose for a payment: its merchant's, by the names they gave.
  api.get(
    '/api/card-terminal/paystack/terminals',
    {
      onRequest: ctx.limits.terminalCalls,
      schema: {
        operationId: 'listPaymentTerminals',
        summary: 'List the terminals a consent’s immediate payment can be paid at',
        querystring: ZPaymentTerminalsQuery,
        response: jsonAnswers({ 200: ZPaymentTerminalsResponse }),
      },
    },
    async (request) => {
      const access = await paymentAccessOf(ctx, request, request.query.consentId);
      return terminalsForPayment(ctx, request.query.paymentId, access);
    },
  );

  // A certified terminal its provider drives (Paystack Terminal): the payment is pushed to it,
  // and its stream says when the payer's card was approved or declined there.
  api.post(
    '/api/card-terminal/paystack/push',
    {
      onRequest: ctx.limits.terminalCalls,
      schema: {
        operationId: 'payAtTerminal',
        summary: 'Send a consent’s immediate payment to one of the merchant’s terminals',
        body: ZTerminalPushRequest,
        response: jsonAnswers({ 200: ZTerminalPushResponse }),
      },
    },
    async (request, reply) => {
      const access = await paymentAccessOf(ctx, request, request.body.consentId);
      await ctx.limits.terminalPushes(request, reply, pushLimitKey(request.body.paymentId, access));
      return pushToTerminal(ctx, request.body, access);
    },
  );
};
