import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { maskedBvn } from '../../domain/bvn';
import { phoneChangedAnswer } from '../../domain/phone-change';
import { BVN_CODE_SENT_MESSAGE, codeSentMessage } from '../../domain/phone-code-texts';
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
 * registered phone. Asking for the code answers the same whatever the BVN; only the verification,
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
      onRequest: [signedIn, ctx.limits.codeSends],
      schema: {
        operationId: 'sendBvnCode',
        summary: 'Send a code to the phone registered with a BVN',
        description:
          'Answers the same whatever the BVN: whether the registry knows it, whose it is and its phone are not said. A code goes to the phone the registry names, if it knows the BVN; one another payer verified is refused (409 `BVN_TAKEN`) only at `verifyBvn`, to whoever proved the code. Every ask counts against the payer’s limit (429 `PHONE_CODE_RATE_LIMITED`) and the BVN’s, from any payer or address (429 `RATE_LIMITED`).',
        body: ZBvnCodeRequest,
        response: jsonAnswers({ 200: ZBvnCodeResponse }),
      },
    },
    async (request, reply) => {
      const payer = payerOf(request);
      const sent = await requestBvnCode(ctx, payer.payerId, {
        bvn: request.body.bvn,
        mayReplace: payer.passkeyProven,
        countTarget: (targetKey) => ctx.limits.bvnCodeSends(request, reply, targetKey),
      });
      return {
        success: true as const,
        expiresAt: sent.expiresAt.toISOString(),
        message: BVN_CODE_SENT_MESSAGE,
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
        description:
          'The right code makes the BVN the payer’s; one another payer verified answers 409 `BVN_TAKEN` (the only place it is said). A BVN the registry does not know had no code sent: every guess is a wrong try.',
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
