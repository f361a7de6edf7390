import type { FastifyPluginAsync, FastifyReply, preValidationAsyncHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdentifier } from '../../domain/schemas/fields';
import {
  FORM_MAX_VERSION,
  ZCreateFormResponse,
  ZFormDefinition,
  ZFormPreviewRequest,
  ZFormPreviewResponse,
  ZMerchantFormRead,
  ZMerchantFormResponse,
} from '../../domain/schemas/form';
import type { TRouteContext } from '../context';
import { AppError } from '../app-error';
import { isFileLinkValid, readStoredFile } from '../services/forms/form-files';
import {
  addFormVersion,
  createForm,
  formFileForLink,
  previewForm,
  readFormResponseForMerchant,
  readMerchantForm,
  type TFormCreated,
} from '../services/forms/forms';
import { ZIdempotencyHeaders } from './idempotency';
import { merchantOf, requireMerchant } from './merchant-guard';
import { jsonAnswers } from './responses';
import type { TZodApp } from './zod-app';

const ZFormParams = z.object({ formId: ZIdentifier });

/** 201 for a new form or version; 200 for the first answer replayed to a retry. */
const sendCreated = (reply: FastifyReply, { created, ...answer }: TFormCreated) =>
  reply.code(created ? 201 : 200).send({ success: true as const, ...answer });

/** A form created, or given a new version, each once per Idempotency-Key. */
function registerFormCreationRoutes(
  api: TZodApp,
  ctx: TRouteContext,
  preValidation: preValidationAsyncHookHandler,
) {
  api.post(
    '/api/v1/forms',
    {
      preValidation,
      schema: {
        operationId: 'createForm',
        summary: 'Create a form',
        body: ZFormDefinition,
        headers: ZIdempotencyHeaders,
        // 201: created; 200: the first answer to a retry with the same Idempotency-Key.
        response: jsonAnswers({ 200: ZCreateFormResponse, 201: ZCreateFormResponse }),
      },
    },
    async (request, reply) => {
      const created = await createForm(ctx.db, request.body, {
        ...merchantOf(request),
        idempotencyKey: request.headers['idempotency-key'],
      });
      return sendCreated(reply, created);
    },
  );

  api.post(
    '/api/v1/forms/:formId/versions',
    {
      preValidation,
      schema: {
        operationId: 'createFormVersion',
        summary: 'Add a version to a form',
        params: ZFormParams,
        body: ZFormDefinition,
        headers: ZIdempotencyHeaders,
        response: jsonAnswers({ 200: ZCreateFormResponse, 201: ZCreateFormResponse }),
      },
    },
    async (request, reply) => {
      const created = await addFormVersion(ctx.db, request.params.formId, request.body, {
        ...merchantOf(request),
        idempotencyKey: request.headers['idempotency-key'],
      });
      return sendCreated(reply, created);
    },
  );
}

/** A form read with its versions, previewed, and a payer's answers to it read. */
function registerFormReadRoutes(
  api: TZodApp,
  ctx: TRouteContext,
  preValidation: preValidationAsyncHookHandler,
) {
  api.get(
    '/api/v1/forms/:formId',
    {
      preValidation,
      schema: {
        operationId: 'getForm',
        summary: 'Read a form and its versions',
        params: ZFormParams,
        querystring: z.object({
          version: z.coerce.number().int().min(1).max(FORM_MAX_VERSION).optional(),
        }),
        response: jsonAnswers({ 200: ZMerchantFormRead }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await readMerchantForm(
        ctx.db,
        request.params.formId,
        merchantOf(request).clientId,
        request.query.version,
      )),
    }),
  );

  api.post(
    '/api/v1/forms/:formId/preview',
    {
      preValidation,
      schema: {
        operationId: 'previewForm',
        summary: 'Preview a form with its placeholders filled',
        params: ZFormParams,
        body: ZFormPreviewRequest,
        response: jsonAnswers({ 200: ZFormPreviewResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await previewForm(
        ctx.db,
        request.params.formId,
        merchantOf(request).clientId,
        request.body,
      )),
    }),
  );

  api.get(
    '/api/v1/forms/:formId/responses/:responseId',
    {
      preValidation,
      schema: {
        operationId: 'getFormResponse',
        summary: 'Read a payer’s answers to a form',
        params: ZFormParams.extend({ responseId: ZIdentifier }),
        response: jsonAnswers({ 200: ZMerchantFormResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      response: await readFormResponseForMerchant(
        ctx.db,
        ctx.config.publicUrl,
        { ...request.params, clientId: merchantOf(request).clientId },
        ctx.clock.now(),
      ),
    }),
  );
}

/** A file a payer uploaded, by its signed link: the link is the credential. */
function registerFormFileRoute(api: TZodApp, ctx: TRouteContext) {
  api.get(
    '/api/v1/form-files/:fileId',
    {
      schema: {
        operationId: 'downloadFormFile',
        summary: 'Download a file a payer uploaded to a form',
        params: z.object({ fileId: ZIdentifier }),
        querystring: z.object({
          expires: z.coerce.number().int().min(0).max(8_640_000_000_000_000),
          signature: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/),
        }),
        // The file's bytes as they were stored (a Buffer is sent as it is, not serialised).
        response: jsonAnswers({ 200: z.instanceof(Buffer).describe('the stored file') }),
      },
    },
    async (request, reply) => {
      const link = { fileId: request.params.fileId, ...request.query };
      if (!(await isFileLinkValid(ctx.db, link, ctx.clock.now()))) {
        throw new AppError('FORM_FILE_LINK_INVALID');
      }
      const file = await formFileForLink(ctx.db, link.fileId);
      const bytes = await readStoredFile(ctx.config.dataDir, file.storageKey);
      // Served as what its content is, to be saved rather than shown inside our origin.
      return reply
        .header('Content-Type', file.mediaType)
        .header(
          'Content-Disposition',
          `attachment; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
        )
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('Cache-Control', 'private, no-store')
        .send(bytes);
    },
  );
}

/**
 * A merchant's forms (docs/forms.md), with client credentials: create one, add a version, read
 * and preview it, read a payer's answers. The signed file links of those answers are the only
 * call here without credentials: the link is the credential, for a few minutes.
 */
export const merchantFormRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const preValidation = requireMerchant(ctx);
  registerFormCreationRoutes(api, ctx, preValidation);
  registerFormReadRoutes(api, ctx, preValidation);
  registerFormFileRoute(api, ctx);
};
