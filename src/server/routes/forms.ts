import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdentifier } from '../../domain/schemas/fields';
import {
  FORM_FILE_MAX_BYTES,
  FORM_FILE_TYPES,
  ZFormKey,
  ZFormQuery,
  ZFormReadResponse,
  ZSaveFormSectionRequest,
  ZSaveFormSectionResponse,
  ZUploadFormFileQuery,
  ZUploadFormFileResponse,
} from '../../domain/schemas/form';
import type { TRouteContext } from '../context';
import { AppError } from '../app-error';
import { readFormForPage, saveFormSection, uploadFormFile } from '../services/forms/forms';
import { jsonAnswers } from './responses';

/** The content types a file may arrive as; what it is, is read from its bytes. */
const UPLOAD_CONTENT_TYPES = ['application/octet-stream', ...FORM_FILE_TYPES];

/** A file name sent in X-File-Name, percent-encoded (a header carries ASCII only). */
function decodeFileName(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  try {
    return decodeURIComponent(header);
  } catch {
    return undefined;
  }
}

/**
 * The page's form calls (spec §7 GET /api/form, docs/forms.md): read the form, save a section's
 * answers, upload a file. Saves carry the consent's formUpdateToken once the first save has
 * issued it.
 */
export const formRoutes: FastifyPluginAsync<TRouteContext> = async (app, ctx) => {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Files arrive as their bytes; this parser exists in this plugin only.
  app.addContentTypeParser(
    UPLOAD_CONTENT_TYPES,
    { parseAs: 'buffer', bodyLimit: FORM_FILE_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );

  api.get(
    '/api/form',
    {
      schema: {
        operationId: 'getConsentForm',
        summary: 'Read a consent’s form with the answers saved so far',
        querystring: ZFormQuery,
        response: jsonAnswers({ 200: ZFormReadResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      data: await readFormForPage(ctx.db, request.query, ctx.clock.now()),
    }),
  );

  api.put(
    '/api/form/sections/:sectionId',
    {
      schema: {
        operationId: 'saveFormSection',
        summary: 'Save the answers of one form section',
        params: z.object({ sectionId: ZFormKey }),
        body: ZSaveFormSectionRequest,
        response: jsonAnswers({ 200: ZSaveFormSectionResponse }),
      },
    },
    async (request) => ({
      success: true as const,
      ...(await saveFormSection(ctx.db, request.params.sectionId, request.body, ctx.clock.now())),
    }),
  );

  api.post(
    '/api/form/files',
    {
      bodyLimit: FORM_FILE_MAX_BYTES,
      schema: {
        operationId: 'uploadFormFile',
        summary: 'Upload a file for a form field',
        querystring: ZUploadFormFileQuery,
        headers: z.object({
          'x-form-update-token': z.optional(ZIdentifier),
          'x-file-name': z.string().max(600).optional(),
        }),
        response: jsonAnswers({ 201: ZUploadFormFileResponse }),
      },
    },
    async (request, reply) => {
      const bytes: unknown = request.body;
      if (!Buffer.isBuffer(bytes)) throw new AppError('FORM_FILE_TYPE_NOT_ALLOWED');
      const uploaded = await uploadFormFile(
        ctx.db,
        ctx.config.dataDir,
        {
          ...request.query,
          formUpdateToken: request.headers['x-form-update-token'],
          fileName: decodeFileName(request.headers['x-file-name']),
          bytes,
        },
        ctx.clock.now(),
      );
      return reply.code(201).send({ success: true as const, ...uploaded });
    },
  );
};
