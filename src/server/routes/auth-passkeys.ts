import type { FastifyPluginAsync, onRequestAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZOkResponse,
  ZPasskeyIdParams,
  ZPasskeyRemovalCancelRequest,
  ZPasskeyRemovalCancelResponse,
  ZPasskeyRemovalScheduledResponse,
  ZPasskeyRegisterRequest,
  ZPasskeyRegisterResponse,
  ZPasskeyRegistrationOptionsResponse,
  ZPasskeyRemoveResponse,
  ZPasskeysResponse,
  ZStepUpRequest,
  ZStepUpResponse,
  ZWebAuthnOptionsResponse,
} from '../../domain/schemas/auth';
import type { TRouteContext } from '../context';
import {
  cancelRemoval,
  cancelRemovalByToken,
  listPasskeys,
  registerPasskey,
  registrationOptions,
  removePasskey,
} from '../services/identity/passkey-devices';
import { stepUp, stepUpOptions } from '../services/identity/step-up';
import { payerOf, requirePasskeyProof, requirePayer } from './payer-guard';
import { jsonAnswers } from './responses';
import type { TZodApp } from './zod-app';

/** A passkey added (its options, then the passkey), and the payer's list of them. */
function registerPasskeyRoutes(r: TZodApp, ctx: TRouteContext, guard: onRequestAsyncHookHandler) {
  const { db, config, clock, limits, jobs } = ctx;

  r.post(
    '/api/auth/passkeys/registration-options',
    {
      onRequest: [limits.challenges, guard],
      schema: {
        operationId: 'getPasskeyRegistrationOptions',
        summary: 'Get the WebAuthn options to add a passkey',
        response: jsonAnswers({ 200: ZPasskeyRegistrationOptionsResponse }),
      },
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
        operationId: 'registerPasskey',
        summary: 'Add a passkey to the payer’s account',
        body: ZPasskeyRegisterRequest,
        response: jsonAnswers({ 201: ZPasskeyRegisterResponse }),
      },
    },
    async (request, reply) => {
      // Its SMS goes to the payer's own number: strangers asking codes for that number must not
      // be able to refuse it (ownSmsSends counts it for the payer and the address, not the number).
      const saved = await registerPasskey(
        { db, config, jobs, smsGate: limits.ownSmsSends(request, reply) },
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
    {
      onRequest: guard,
      schema: {
        operationId: 'listPasskeys',
        summary: 'List the payer’s passkeys',
        response: jsonAnswers({ 200: ZPasskeysResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      passkeys: await listPasskeys(db, payerOf(request).payerId, clock.now()),
    }),
  );
}

/** A passkey removed, at once or after 24 h, and a waiting removal cancelled. */
function registerPasskeyRemovalRoutes(
  r: TZodApp,
  ctx: TRouteContext,
  guard: onRequestAsyncHookHandler,
) {
  const { db, config, clock, limits, jobs } = ctx;

  // 200: removed at once; 202: a session no trusted passkey proved asked, the removal waits 24 h.
  r.delete(
    '/api/auth/passkeys/:passkeyId',
    {
      onRequest: guard,
      schema: {
        operationId: 'removePasskey',
        summary: 'Remove a passkey, at once or after 24 hours',
        params: ZPasskeyIdParams,
        response: jsonAnswers({
          200: ZPasskeyRemoveResponse,
          202: ZPasskeyRemovalScheduledResponse,
        }),
      },
    },
    async (request, reply) => {
      // Its SMS goes to the payer's own number: strangers asking codes for that number must not
      // be able to refuse it (ownSmsSends counts it for the payer and the address, not the number).
      const outcome = await removePasskey(
        { db, config, jobs, smsGate: limits.ownSmsSends(request, reply) },
        payerOf(request),
        request.params.passkeyId,
        clock.now(),
      );
      if (outcome.removed) {
        return reply.code(200).send({ success: true as const, passkeyCount: outcome.passkeyCount });
      }
      return reply.code(202).send({
        success: true as const,
        passkeyId: outcome.passkeyId,
        removalDueAt: outcome.removalDueAt.toISOString(),
        passkeyCount: outcome.passkeyCount,
      });
    },
  );

  // A scheduled removal cancelled from a session a trusted passkey proved.
  r.delete(
    '/api/auth/passkeys/:passkeyId/removal',
    {
      onRequest: [guard, requirePasskeyProof],
      schema: {
        operationId: 'cancelPasskeyRemoval',
        summary: 'Cancel a passkey’s scheduled removal',
        params: ZPasskeyIdParams,
        response: jsonAnswers({ 200: ZOkResponse }),
      },
    },
    async (request) => {
      await cancelRemoval(db, payerOf(request).payerId, request.params.passkeyId, clock.now());
      return { success: true as const };
    },
  );

  // The SMS's cancel link: no session (the payer may be signed in nowhere), the token is the proof.
  r.post(
    '/api/auth/passkeys/removals/cancel',
    {
      onRequest: limits.challenges,
      schema: {
        operationId: 'cancelPasskeyRemovalByToken',
        summary: 'Cancel a scheduled passkey removal with the SMS link’s token',
        body: ZPasskeyRemovalCancelRequest,
        response: jsonAnswers({ 200: ZPasskeyRemovalCancelResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await cancelRemovalByToken(db, config, request.body.token, clock.now())),
    }),
  );
}

/** The step-up that proves the session with a passkey: its options, then the proof. */
function registerStepUpRoutes(r: TZodApp, ctx: TRouteContext, guard: onRequestAsyncHookHandler) {
  const { db, config, clock, limits } = ctx;

  r.post(
    '/api/auth/step-up/options',
    {
      onRequest: [limits.challenges, guard],
      schema: {
        operationId: 'getStepUpOptions',
        summary: 'Get the WebAuthn options to prove this session with a passkey',
        response: jsonAnswers({ 200: ZWebAuthnOptionsResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      options: await stepUpOptions(db, config, payerOf(request), clock.now()),
    }),
  );

  r.post(
    '/api/auth/step-up',
    {
      onRequest: guard,
      schema: {
        operationId: 'stepUp',
        summary: 'Prove this session with a passkey',
        body: ZStepUpRequest,
        response: jsonAnswers({ 200: ZStepUpResponse }),
      },
    },
    async (request) => {
      const proven = await stepUp(db, config, payerOf(request), request.body.response, clock.now());
      return { success: true as const, passkeyProvenAt: proven.passkeyProvenAt.toISOString() };
    },
  );
}

/**
 * Passkeys of the signed-in payer: one more on this device (a payer may hold several), approved
 * by one they have or waiting 24 h, the list and removal of their account page (a removal asked
 * by a session signed in by code alone waits 24 h, with a cancel link), and the step-up that
 * proves a session with a passkey (docs/identity.md "Actions and the proof they need").
 */
export const authPasskeyRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = requirePayer(ctx, { identifyTo: 'ignore' });
  registerPasskeyRoutes(r, ctx, guard);
  registerPasskeyRemovalRoutes(r, ctx, guard);
  registerStepUpRoutes(r, ctx, guard);
};
