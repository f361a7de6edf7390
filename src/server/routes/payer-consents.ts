import type { FastifyPluginAsync, onRequestAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZPayerConsentParams,
  ZPayerConsentsQuery,
  ZPayerConsentsResponse,
  ZRevocationChallengeResponse,
  ZRevokeConsentRequest,
  ZRevokeConsentResponse,
} from '../../domain/schemas/payer-consents';
import {
  ZConsentRecordResponse,
  ZReceiptChallengeResponse,
  ZReceiptParams,
  ZReceiptResponse,
} from '../../domain/schemas/consent-record';
import type { TRouteContext } from '../context';
import {
  issueRevocationChallenge,
  listPayerConsents,
  payerConsentView,
  revokeConsent,
} from '../services/consents/payer-consents';
import { payerConsentRecord } from '../services/consents/consent-records';
import {
  readReceipt,
  receiptRevocationChallenge,
  revokeByReceipt,
} from '../services/consents/consent-receipts';
import { confirmDataSharing } from '../services/consents/data-sharing-expiry';
import { changePause, issuePauseChallenge } from '../services/consents/consent-pauses';
import { payerOf, requirePasskeyProof, requirePayer } from './payer-guard';
import { jsonAnswers } from './responses';
import type { TZodApp } from './zod-app';

/** The signed-in payer's consents: the list, and a revocation signed with their passkey. */
function registerPayerConsentListRoutes(
  r: TZodApp,
  ctx: TRouteContext,
  guard: onRequestAsyncHookHandler,
) {
  r.get(
    '/api/users/consents',
    {
      onRequest: guard,
      schema: {
        operationId: 'listPayerConsents',
        summary: 'List the signed-in payer’s consents',
        querystring: ZPayerConsentsQuery,
        response: jsonAnswers({ 200: ZPayerConsentsResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await listPayerConsents(ctx.db, payerOf(request).payerId, request.query)),
    }),
  );

  r.post(
    '/api/users/consents/:consentId/revocation-challenges',
    {
      onRequest: [ctx.limits.challenges, guard],
      schema: {
        operationId: 'createRevocationChallenge',
        summary: 'Get a nonce to sign a consent’s revocation with',
        params: ZPayerConsentParams,
        response: jsonAnswers({ 200: ZRevocationChallengeResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await issueRevocationChallenge(ctx, payerOf(request).payerId, request.params.consentId)),
    }),
  );

  r.post(
    '/api/users/consents/:consentId/revoke',
    {
      onRequest: guard,
      schema: {
        operationId: 'revokeConsent',
        summary: 'Revoke a consent with a passkey signature',
        params: ZPayerConsentParams,
        body: ZRevokeConsentRequest,
        response: jsonAnswers({ 200: ZRevokeConsentResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      consent: await revokeConsent(ctx, payerOf(request), request.params.consentId, request.body),
    }),
  );
}

/**
 * A consent's future payments paused and resumed, each signed with the payer's passkey over a
 * nonce issued for pausing that consent (docs/payer-consents.md "Pause and resume").
 */
function registerPauseRoutes(r: TZodApp, ctx: TRouteContext, guard: onRequestAsyncHookHandler) {
  r.post(
    '/api/users/consents/:consentId/pause-challenges',
    {
      onRequest: [ctx.limits.challenges, guard],
      schema: {
        operationId: 'createPauseChallenge',
        summary: 'Get a nonce to sign a pause or resume of a consent’s future payments with',
        params: ZPayerConsentParams,
        response: jsonAnswers({ 200: ZRevocationChallengeResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await issuePauseChallenge(ctx, payerOf(request).payerId, request.params.consentId)),
    }),
  );
  for (const action of ['pause', 'resume'] as const) {
    r.post(
      `/api/users/consents/:consentId/${action}`,
      {
        onRequest: [ctx.limits.challenges, guard],
        schema: {
          operationId: action === 'pause' ? 'pauseConsent' : 'resumeConsent',
          summary:
            action === 'pause'
              ? 'Pause a consent’s future payments with a passkey signature'
              : 'Resume a consent’s paused future payments with a passkey signature',
          params: ZPayerConsentParams,
          body: ZRevokeConsentRequest,
          response: jsonAnswers({ 200: ZRevokeConsentResponse }),
        },
      },
      async (request) => ({
        success: true as const,
        consent: await changePause(
          ctx,
          payerOf(request),
          request.params.consentId,
          action,
          request.body,
        ),
      }),
    );
  }
}

/** A consent's record and audit, and its data sharing confirmed again. */
function registerConsentRecordRoutes(
  r: TZodApp,
  ctx: TRouteContext,
  guard: onRequestAsyncHookHandler,
) {
  r.get(
    '/api/users/consents/:consentId/record',
    {
      onRequest: guard,
      schema: {
        operationId: 'getPayerConsentRecord',
        summary: 'Read a consent’s record and audit trail',
        params: ZPayerConsentParams,
        response: jsonAnswers({ 200: ZConsentRecordResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await payerConsentRecord(ctx.db, payerOf(request).payerId, request.params.consentId)),
    }),
  );

  // Confirming data sharing again extends a grant: a session a passkey proved, as a grant needs.
  r.post(
    '/api/users/consents/:consentId/data-sharing/confirm',
    {
      onRequest: [guard, requirePasskeyProof],
      schema: {
        operationId: 'confirmDataSharing',
        summary: 'Confirm a consent’s data sharing again, extending it',
        params: ZPayerConsentParams,
        response: jsonAnswers({ 200: ZRevokeConsentResponse }),
      },
    },
    async (request) => {
      const { payerId } = payerOf(request);
      await confirmDataSharing(ctx, payerId, request.params.consentId);
      return {
        success: true as const,
        consent: await payerConsentView(ctx.db, payerId, request.params.consentId),
      };
    },
  );
}

/** The SMS receipt's link, the token its proof: the consent, and its revocation. */
function registerConsentReceiptRoutes(r: TZodApp, ctx: TRouteContext) {
  r.get(
    '/api/consent-receipts/:token',
    {
      schema: {
        operationId: 'getConsentReceipt',
        summary: 'Read the consent an SMS receipt’s link names',
        params: ZReceiptParams,
        response: jsonAnswers({ 200: ZReceiptResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await readReceipt(ctx, request.params.token)),
    }),
  );

  r.post(
    '/api/consent-receipts/:token/revocation-challenges',
    {
      onRequest: ctx.limits.challenges,
      schema: {
        operationId: 'createReceiptRevocationChallenge',
        summary: 'Get a nonce to sign the receipt’s consent’s revocation with',
        params: ZReceiptParams,
        response: jsonAnswers({ 200: ZReceiptChallengeResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await receiptRevocationChallenge(ctx, request.params.token)),
    }),
  );

  r.post(
    '/api/consent-receipts/:token/revoke',
    {
      schema: {
        operationId: 'revokeConsentByReceipt',
        summary: 'Revoke the receipt’s consent with a passkey signature',
        params: ZReceiptParams,
        body: ZRevokeConsentRequest,
        response: jsonAnswers({ 200: ZRevokeConsentResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      consent: await revokeByReceipt(ctx, request.params.token, request.body),
    }),
  );
}

/**
 * The signed-in payer's own consents (docs/payer-consents.md): the list, a nonce for one
 * revocation signature, and the passkey-signed revocation; a consent's record and audit, and the
 * confirmation of its data sharing. And the SMS receipt's link, which needs no session: one
 * consent, its record, and its revocation signed by the payer's passkey.
 */
export const payerConsentRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = requirePayer(ctx, { identifyTo: 'ignore' });
  registerPayerConsentListRoutes(r, ctx, guard);
  registerPauseRoutes(r, ctx, guard);
  registerConsentRecordRoutes(r, ctx, guard);
  registerConsentReceiptRoutes(r, ctx);
};
