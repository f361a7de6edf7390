import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdentifier } from '../../domain/schemas/fields';
import {
  ZCreateConsentRequest,
  ZCreateConsentResponse,
  ZMerchantConsentResponse,
  ZMerchantConsentsQuery,
  ZMerchantConsentsResponse,
  ZSharedBvnResponse,
} from '../../domain/schemas/merchant-api';
import type { TRouteContext } from '../context';
import { capabilitiesOn } from '../providers/capability-lines';
import {
  createConsent,
  listMerchantConsents,
  readMerchantConsent,
} from '../services/consents/consents';
import { readSharedBvn } from '../services/merchants/shared-bvn';
import { merchantConsentRecord } from '../services/consents/consent-records';
import { ZConsentRecordResponse } from '../../domain/schemas/consent-record';
import { consentPageUrl } from '../services/page-urls';
import { ZIdempotencyHeaders } from './idempotency';
import { merchantOf, requireMerchant } from './merchant-guard';
import { jsonAnswers } from './responses';

/** Server-to-server API of merchants (authenticated with their client credentials). */
export const merchantConsentRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const { db, config, clock, events, limits } = ctx;
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v1/consents',
    {
      // Credentials are checked before the body, so a stranger learns nothing about the schema.
      preValidation: requireMerchant({ db, limits, clock }),
      schema: {
        operationId: 'createConsent',
        summary: 'Create a consent and the address of its page',
        description:
          'Refused with 409 CAPABILITY_OFF, naming what is missing, when the consent needs a ' +
          'capability this server has no provider for: future payments without a BVN registry ' +
          'or a way to mandate an account, BVN data or bank account information without a BVN ' +
          'registry, anything a payer must sign in for without SMS. GET /api/health/ready lists ' +
          'each capability and what serves it.',
        body: ZCreateConsentRequest,
        headers: ZIdempotencyHeaders,
        // 201: created; 200: the first answer to a retry with the same Idempotency-Key.
        response: jsonAnswers({ 200: ZCreateConsentResponse, 201: ZCreateConsentResponse }),
      },
    },
    async (request, reply) => {
      const client = merchantOf(request);
      const result = await createConsent(db, request.body, {
        clientId: client.clientId,
        merchantId: client.merchantId,
        authenticated: client,
        idempotencyKey: request.headers['idempotency-key'],
        now: clock.now(),
        events,
        capabilities: capabilitiesOn(ctx.capabilities),
      });
      return reply.code(result.created ? 201 : 200).send({
        success: true as const,
        consentId: result.consentId,
        url: consentPageUrl(config.publicUrl, result.consentId, client.clientId),
        expiresAt: result.expiresAt,
      });
    },
  );

  // One consent as it stands: its status (granted, revoked with revokedAt, …) and payments.
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v1/consents/:consentId',
    {
      preValidation: requireMerchant({ db, limits, clock }),
      schema: {
        operationId: 'getConsent',
        summary: 'Read one consent as it stands',
        params: z.object({ consentId: ZIdentifier }),
        response: jsonAnswers({ 200: ZMerchantConsentResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      consent: await readMerchantConsent(
        db,
        merchantOf(request).merchantId,
        request.params.consentId,
      ),
    }),
  );

  // The merchant's consents, newest first, of one status when asked; cursor pages.
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v1/consents',
    {
      preValidation: requireMerchant({ db, limits, clock }),
      schema: {
        operationId: 'listConsents',
        summary: 'List consents, newest first, by status or reference',
        querystring: ZMerchantConsentsQuery,
        response: jsonAnswers({ 200: ZMerchantConsentsResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await listMerchantConsents(db, merchantOf(request).merchantId, request.query)),
    }),
  );

  // The payer's verified BVN, while the granted consent shares it (docs/merchant-clients.md).
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v1/consents/:consentId/shared-data/bvn',
    {
      preValidation: requireMerchant({ db, limits, clock }),
      schema: {
        operationId: 'getSharedBvn',
        summary: "Read the payer's verified BVN the consent shares",
        params: z.object({ consentId: ZIdentifier }),
        response: jsonAnswers({ 200: ZSharedBvnResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      bvn: await readSharedBvn(ctx, merchantOf(request).clientId, request.params.consentId),
    }),
  );

  // What the payer was shown and how they granted it, and every change since (docs/payer-consents.md).
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/v1/consents/:consentId/record',
    {
      preValidation: requireMerchant({ db, limits, clock }),
      schema: {
        operationId: 'getConsentRecord',
        summary: 'Read what the payer was shown and every change since',
        params: z.object({ consentId: ZIdentifier }),
        response: jsonAnswers({ 200: ZConsentRecordResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await merchantConsentRecord(
        db,
        merchantOf(request).merchantId,
        request.params.consentId,
      )),
    }),
  );
};
