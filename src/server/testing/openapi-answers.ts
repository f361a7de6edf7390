// Real answers against the OpenAPI document (docs/openapi.md): every answer a test app sends to
// a documented route is checked against the document's answer for its method, path and status,
// JSON bodies by JSON Schema 2020-12 (ajv), other answers by their media type; every webhook
// event the app wrote against the document's `webhooks` entry of its type. startTestApp records
// what disagrees and its close() fails the test file with the list.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import type { TDb } from '../db/database';
import { merchantEvents } from '../db/schema';

type TMedia = { schema?: unknown };
type TAnswer = { content?: Record<string, TMedia> };
type TOperation = {
  responses?: Record<string, TAnswer>;
  requestBody?: { content?: Record<string, TMedia> };
};
export type TOpenApiDocument = {
  paths: Record<string, Record<string, TOperation>>;
  webhooks?: Record<string, { post: TOperation }>;
};

/** A Fastify route URL as an OpenAPI path: `/a/:id` is `/a/{id}`. */
export const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/** `~` and `/` escaped for a JSON pointer. */
const pointer = (parts: string[]) =>
  parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

const DOCUMENT_ID = 'https://openapi.test/document.json';

/**
 * Checks answers and webhook bodies against `document`. Each check answers null when the answer
 * agrees, else what disagrees (with ajv's errors).
 */
export function openApiChecker(document: TOpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, formats: { binary: true } });
  addFormats.default(ajv);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const compiled = new Map<string, ValidateFunction>();
  const validatorAt = (parts: string[]) => {
    const ref = `${DOCUMENT_ID}#/${pointer(parts)}`;
    let validate = compiled.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      compiled.set(ref, validate);
    }
    return validate;
  };
  const failureOf = (validate: ValidateFunction, value: unknown) =>
    validate(value) ? null : ajv.errorsText(validate.errors, { dataVar: 'body' });

  /** The document's answer of `status` (its own entry, else 4XX/5XX, else default). */
  function answerOf(operation: TOperation, status: number) {
    const keys = [String(status), `${String(status)[0]}XX`, 'default'];
    const key = keys.find((k) => operation.responses?.[k]);
    return key ? { key, answer: operation.responses?.[key] as TAnswer } : null;
  }

  return {
    /** `value` against the schema at `parts` of the document (a JSON pointer's tokens). */
    at(parts: string[], value: unknown): string | null {
      return failureOf(validatorAt(parts), value);
    },

    /** Whether the document describes `method url` (a Fastify route URL). */
    documents(method: string, url: string): boolean {
      return Boolean(document.paths[openApiPath(url)]?.[method.toLowerCase()]);
    },

    answer(
      method: string,
      url: string,
      answer: { status: number; contentType: string | undefined; body: string | null },
    ): string | null {
      const path = openApiPath(url);
      const verb = method.toLowerCase();
      const operation = document.paths[path]?.[verb];
      if (!operation) return `${method} ${url} is not in the document`;
      const found = answerOf(operation, answer.status);
      if (!found) return `${method} ${url} answered ${answer.status}, which the document lacks`;
      const media = Object.keys(found.answer.content ?? {});
      if (media.length === 0) {
        return answer.body ? `answered a body where the document declares none` : null;
      }
      const type = (answer.contentType ?? '').split(';')[0]?.trim() ?? '';
      const json = media.includes('application/json');
      if (
        !media.includes(type) &&
        !(json === false && media.includes('application/octet-stream'))
      ) {
        return `answered ${type || 'no content type'}; the document says ${media.join(', ')}`;
      }
      if (type !== 'application/json' || answer.body === null) return null;
      let parsed: unknown;
      try {
        parsed = JSON.parse(answer.body);
      } catch {
        return 'answered a body that is not JSON';
      }
      const validate = validatorAt([
        'paths',
        path,
        verb,
        'responses',
        found.key,
        'content',
        'application/json',
        'schema',
      ]);
      return failureOf(validate, parsed);
    },

    /** A webhook body (what a delivery posts) against the entry of its type. */
    webhook(body: { type: string } & Record<string, unknown>): string | null {
      if (!document.webhooks?.[body.type])
        return `webhook type ${body.type} is not in the document`;
      const validate = validatorAt([
        'webhooks',
        body.type,
        'post',
        'requestBody',
        'content',
        'application/json',
        'schema',
      ]);
      return failureOf(validate, body);
    },
  };
}
export type TOpenApiChecker = ReturnType<typeof openApiChecker>;

const checkers = new WeakMap<object, TOpenApiChecker>();
/**
 * Checkers by what makes a document: the public URL (its `servers`) and the routes. Making one
 * takes a few hundred milliseconds, so the test apps of one worker that would make the same
 * document share the first one's checker, whose schemas are compiled as first used.
 */
const byDocument = new Map<string, TOpenApiChecker>();

function checkerOf(app: FastifyInstance): TOpenApiChecker {
  let checker = checkers.get(app);
  if (!checker) {
    const key = [
      app.appContext.config.publicUrl,
      ...app.routeTable.map((route) => `${route.method} ${route.url}`),
    ].join('\n');
    checker = byDocument.get(key) ?? openApiChecker(app.swagger() as unknown as TOpenApiDocument);
    byDocument.set(key, checker);
    checkers.set(app, checker);
  }
  return checker;
}

/**
 * Checks every answer of `app` to a documented route against the document, adding what
 * disagrees to `mismatches`. Call before app.ready(): it is an onSend hook on the root.
 */
export function checkAnswersAgainstOpenApi(app: FastifyInstance, mismatches: string[]): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.routeOptions.url;
    if (!url || request.method === 'HEAD') return payload;
    const checker = checkerOf(app);
    if (!checker.documents(request.method, url)) return payload;
    const body =
      typeof payload === 'string'
        ? payload
        : Buffer.isBuffer(payload)
          ? payload.toString('utf8')
          : null;
    const problem = checker.answer(request.method, url, {
      status: reply.statusCode,
      contentType: reply.getHeader('content-type')?.toString(),
      body,
    });
    if (problem) {
      mismatches.push(`${request.method} ${request.url} → ${reply.statusCode}: ${problem}`);
    }
    return payload;
  });
}

/** Every webhook event `db` holds, each as a delivery posts it, against the document. */
export async function webhookMismatches(app: FastifyInstance, db: TDb): Promise<string[]> {
  const rows = await db.select().from(merchantEvents);
  const checker = checkerOf(app);
  return rows.flatMap((row) => {
    const body = {
      id: row.publicId,
      type: row.type,
      createdAt: row.createdAt.toISOString(),
      data: row.data,
    };
    const problem = checker.webhook(body);
    return problem ? [`webhook ${row.type} (${row.publicId}): ${problem}`] : [];
  });
}
