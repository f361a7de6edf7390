import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { maskedBvn } from '../../domain/bvn';
import { phoneChangedAnswer } from '../../domain/phone-change';
import { bvnCodeSentMessage, codeSentMessage } from '../../domain/phone-code-texts';
import { ZPhoneCodeResponse } from '../../domain/schemas/auth';
import {
  ZBvnCodeRequest,
  ZBvnCodeResponse,
  ZBvnStatusResponse,
  ZBvnVerifyRequest,
  ZPhoneChangeRequest,
  ZPhoneChangeResponse,
  ZPhoneChangeVerifyRequest,
} from '../../domain/schemas/identity';
import type { TRouteContext } from '../context';
import { requestBvnCode, verifiedBvn, verifyBvnCode } from '../services/identity/bvn';
import { confirmPhoneChange, requestPhoneChange } from '../services/identity/phone-change';
import { payerOf, requirePasskeyProof, requirePayer } from './payer-guard';
import { payerScope } from './payment-access';
import { jsonAnswers } from './responses';

/**
 * The payer's BVN (docs/identity.md "The BVN"): verified once by a code sent to the BVN's
 * registered phone. Verifying the first BVN needs only a session (the code is itself the proof,
 * from another phone maybe); replacing a verified one needs a session a trusted passkey proved.
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
      onRequest: [signedIn, ctx.limits.codeSends],
      schema: {
        operationId: 'sendBvnCode',
        summary: 'Send a code to the phone registered with a BVN',
        body: ZBvnCodeRequest,
        response: jsonAnswers({ 200: ZBvnCodeResponse }),
      },
    },
    async (request) => {
      const payer = payerOf(request);
      const sent = await requestBvnCode(ctx, payer.payerId, {
        bvn: request.body.bvn,
        mayReplace: payer.passkeyProven,
      });
      return {
        success: true as const,
        sentTo: sent.sentTo,
        expiresAt: sent.expiresAt.toISOString(),
        message: bvnCodeSentMessage(sent.sentTo),
      };
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
        summary: 'Verify a BVN with the code sent to its phone',
        body: ZBvnVerifyRequest,
        response: jsonAnswers({ 200: ZBvnStatusResponse }),
      },
    },
    async (request) => {
      const payer = payerOf(request);
      const bvn = await verifyBvnCode(ctx, payer.payerId, {
        code: request.body.code,
        mayReplace: payer.passkeyProven,
      });
      request.log.info({ bvn: maskedBvn(bvn.last4) }, 'payer verified a BVN');
      return { success: true as const, bvn };
    },
  );

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
    async (request) => {
      const sent = await requestPhoneChange(ctx, payerOf(request), request.body.phone);
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
    async (request) => {
      const changed = await confirmPhoneChange(ctx, payerOf(request), request.body);
      return {
        success: true as const,
        user: changed.user,
        message: phoneChangedAnswer(changed.phoneNumber),
      };
    },
  );
};
