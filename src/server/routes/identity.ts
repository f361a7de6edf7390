import type { FastifyPluginAsync, onRequestAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { maskedBvn } from '../../domain/bvn';
import { phoneChangedAnswer } from '../../domain/phone-change';
import { codeSentMessage } from '../../domain/phone-code-texts';
import { ZPhoneCodeResponse } from '../../domain/schemas/auth';
import {
  ZBvnCodeRequest,
  ZBvnCodeResponse,
  ZBvnSendCodeRequest,
  ZBvnSendCodeResponse,
  ZBvnStatusResponse,
  ZBvnVerifyRequest,
  ZPhoneChangeRequest,
  ZPhoneChangeResponse,
  ZPhoneChangeVerifyRequest,
} from '../../domain/schemas/identity';
import type { TRouteContext } from '../context';
import {
  sendBvnCode,
  startBvnVerification,
  verifiedBvn,
  verifyBvnCode,
} from '../services/identity/bvn';
import { confirmPhoneChange, requestPhoneChange } from '../services/identity/phone-change';
import { payerOf, requirePasskeyProof, requirePayer } from './payer-guard';
import { payerScope } from './payment-access';
import { countingOwnerLookups } from './owner-lookups';
import { jsonAnswers } from './responses';
import type { TZodApp } from './zod-app';

/**
 * The payer's BVN (docs/identity.md "The BVN"): verified once by a code the BVN registry sends
 * (NIBSS's iGree, to the contact the payer picks among its masked hints). Only the verification,
 * by whoever proved the code, says a BVN is taken. Verifying the first BVN needs only a session
 * (the code is itself the proof, from another phone maybe); replacing a verified one needs a
 * session a trusted passkey proved.
 * The sign-in number (docs/identity.md "Changing the phone number") changes only from a session
 * a trusted passkey proved, on a code sent to the new number.
 */
export const identityRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = requirePayer(ctx, { identifyTo: 'ignore' });

  api.get(
    '/api/identity/bvn',
    {
      onRequest: signedIn,
      schema: {
        operationId: 'getBvnStatus',
        summary: 'Read the payer’s BVN and whether it is verified',
        response: jsonAnswers({ 200: ZBvnStatusResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      bvn: await verifiedBvn(ctx.db, payerOf(request).payerId),
    }),
  );

  api.post(
    '/api/identity/bvn',
    {
      // No code goes yet (POST /api/identity/bvn/code sends it): a billed lookup, counted apart.
      onRequest: [signedIn, ctx.limits.bvnVerifications],
      schema: {
        operationId: 'startBvnVerification',
        summary: 'Open a verification of a BVN at the BVN registry',
        description:
          'The registry (NIBSS’s iGree through Mono, or the sandbox registry) answers the ways it can send the BVN’s holder a code, each with its masked hint; the payer picks one (`sendBvnCode`). A BVN the registry does not hold answers 404 `BVN_NOT_FOUND`; one another payer verified is refused (409 `BVN_TAKEN`) only at `verifyBvn`, to whoever proved the code. Each verification is billed by the registry: every ask counts against the payer’s limit (429 `PHONE_CODE_RATE_LIMITED`) and the BVN’s, from any payer or address (429 `RATE_LIMITED`).',
        body: ZBvnCodeRequest,
        response: jsonAnswers({ 200: ZBvnCodeResponse }),
      },
    },
    async (request, reply) => {
      const payer = payerOf(request);
      const opened = await startBvnVerification(ctx, payer.payerId, {
        bvn: request.body.bvn,
        mayReplace: payer.passkeyProven,
        countTarget: (targetKey) => ctx.limits.bvnCodeSends(request, reply, targetKey),
      });
      return {
        success: true as const,
        expiresAt: opened.expiresAt.toISOString(),
        codeSender: opened.codeSender,
        methods: opened.methods,
      };
    },
  );

  api.post(
    '/api/identity/bvn/code',
    {
      onRequest: [signedIn, ctx.limits.codeSends],
      schema: {
        operationId: 'sendBvnCode',
        summary: 'Have the BVN registry send its code the way the payer chose',
        description:
          'One of the ways the open verification offered (400 `BVN_METHOD_UNKNOWN` otherwise). Asked again, the registry sends again, that way or another, up to 3 codes a verification (429 `PHONE_CODE_LOCKED` past them: open a new one). No verification open answers 400 `PHONE_CODE_NOT_FOUND`, an expired one 400 `PHONE_CODE_EXPIRED`.',
        body: ZBvnSendCodeRequest,
        response: jsonAnswers({ 200: ZBvnSendCodeResponse }),
      },
    },
    async (request) => {
      const sent = await sendBvnCode(ctx, payerOf(request).payerId, {
        method: request.body.method,
      });
      return { success: true as const, message: sent.message };
    },
  );

  api.post(
    '/api/identity/bvn/verify',
    {
      onRequest: signedIn,
      idempotency: {
        scope: (request) =>
          payerScope('identity.bvn.verify', { payerId: payerOf(request).payerId }),
      },
      schema: {
        operationId: 'verifyBvn',
        summary: 'Verify a BVN with the code the registry sent',
        description:
          'The registry checks the code; the right one makes the BVN the payer’s; one another payer verified answers 409 `BVN_TAKEN` (the only place it is said). Five wrong tries end the verification (429 `PHONE_CODE_LOCKED`).',
        body: ZBvnVerifyRequest,
        response: jsonAnswers({ 200: ZBvnStatusResponse }),
      },
    },
    async (request, reply) => {
      const payer = payerOf(request);
      const bvn = await verifyBvnCode(countingOwnerLookups(ctx, request, reply), payer.payerId, {
        code: request.body.code,
        mayReplace: payer.passkeyProven,
      });
      request.log.info({ bvn: maskedBvn(bvn.last4) }, 'payer verified a BVN');
      return { success: true as const, bvn };
    },
  );

  registerPhoneNumberRoutes(api, ctx, signedIn);
};

/**
 * The sign-in number changed (docs/identity.md "Changing the phone number"): a code to the new
 * number, then the number proved; each SMS counted for the payer (rate-limits.ts smsSends).
 */
function registerPhoneNumberRoutes(
  api: TZodApp,
  ctx: TRouteContext,
  signedIn: onRequestAsyncHookHandler,
) {
  api.post(
    '/api/identity/phone-number',
    {
      onRequest: [signedIn, requirePasskeyProof, ctx.limits.codeSends],
      schema: {
        operationId: 'sendPhoneNumberCode',
        summary: 'Send a code to a new sign-in phone number',
        body: ZPhoneChangeRequest,
        response: jsonAnswers({ 200: ZPhoneCodeResponse }),
      },
    },
    async (request, reply) => {
      const sent = await requestPhoneChange(
        { ...ctx, smsGate: ctx.limits.smsSends(request, reply) },
        payerOf(request),
        request.body.phone,
      );
      return {
        success: true as const,
        phoneNumber: sent.phoneNumber,
        expiresAt: sent.expiresAt.toISOString(),
        message: codeSentMessage(sent.phoneNumber),
      };
    },
  );

  api.post(
    '/api/identity/phone-number/verify',
    {
      onRequest: [signedIn, requirePasskeyProof],
      idempotency: {
        scope: (request) =>
          payerScope('identity.phone-number.verify', { payerId: payerOf(request).payerId }),
      },
      schema: {
        operationId: 'changePhoneNumber',
        summary: 'Change the sign-in phone number with the code sent to it',
        body: ZPhoneChangeVerifyRequest,
        response: jsonAnswers({ 200: ZPhoneChangeResponse }),
      },
    },
    async (request, reply) => {
      const changed = await confirmPhoneChange(
        { ...ctx, smsGate: ctx.limits.smsSends(request, reply) },
        payerOf(request),
        request.body,
      );
      return {
        success: true as const,
        user: changed.user,
        message: phoneChangedAnswer(changed.phoneNumber),
      };
    },
  );
}
