import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZPasskeyIdParams,
  ZPasskeyRegisterRequest,
  ZPasskeyRegisterResponse,
  ZPasskeyRegistrationOptionsResponse,
  ZPasskeyRemoveResponse,
  ZPasskeysResponse,
} from '../../domain/schemas/auth';
import type { TRouteContext } from '../context';
import {
  listPasskeys,
  registerPasskey,
  registrationOptions,
  removePasskey,
} from '../services/identity/passkey-devices';
import { payerOf, requirePayer } from './payer-guard';
import { jsonAnswers } from './responses';

/**
 * Passkeys of the signed-in payer: one more on this device (a payer may hold several), approved
 * by one they have or waiting 24 h, and the list and removal of their account page.
 */
export const authPasskeyRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const { db, config, clock, limits, providers } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = requirePayer(ctx, { identifyTo: 'ignore' });

  r.post(
    '/api/auth/passkeys/registration-options',
    {
      onRequest: [limits.challenges, guard],
      schema: { response: jsonAnswers({ 200: ZPasskeyRegistrationOptionsResponse }) },
    },
    async (request) => ({
      success: true as const,
      ...(await registrationOptions(db, config, payerOf(request).payerId, clock.now())),
    }),
  );

  r.post(
    '/api/auth/passkeys',
    {
      onRequest: guard,
      schema: {
        body: ZPasskeyRegisterRequest,
        response: jsonAnswers({ 201: ZPasskeyRegisterResponse }),
      },
    },
    async (request, reply) => {
      const saved = await registerPasskey(
        { db, config, sms: providers.sms },
        payerOf(request),
        request.body,
        clock.now(),
      );
      return reply.code(201).send({
        success: true as const,
        ...saved,
        signsFrom: saved.signsFrom.toISOString(),
      });
    },
  );

  r.get(
    '/api/auth/passkeys',
    { onRequest: guard, schema: { response: jsonAnswers({ 200: ZPasskeysResponse }) } },
    async (request) => ({
      success: true as const,
      passkeys: await listPasskeys(db, payerOf(request).payerId, clock.now()),
    }),
  );

  r.delete(
    '/api/auth/passkeys/:passkeyId',
    {
      onRequest: guard,
      schema: { params: ZPasskeyIdParams, response: jsonAnswers({ 200: ZPasskeyRemoveResponse }) },
    },
    async (request) => ({
      success: true as const,
      ...(await removePasskey(db, payerOf(request).payerId, request.params.passkeyId)),
    }),
  );
};
