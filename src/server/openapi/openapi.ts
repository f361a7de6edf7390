import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApiErrorBody } from '../../domain/schemas/api-error';
import { ZJsonValue } from '../../domain/schemas/auth';
import { jsonAnswers } from '../routes/responses';
import { guardKindOf } from '../routes/guard-kinds';
import type { TConfig } from '../config';
import {
  API_DESCRIPTION,
  API_TAGS,
  DOCUMENTED_OUTSIDE_API,
  HANDLER_SECURITY,
  NON_JSON_ANSWERS,
  SECURITY_SCHEMES,
  UNDOCUMENTED_ROUTES,
  addExamples,
  eventStreamOf,
  tagOf,
  webhooksSection,
} from './openapi-content';

/*
 * The OpenAPI 3.1 description of the API (docs/openapi.md), made from the routes' own zod
 * schemas by @fastify/swagger with fastify-type-provider-zod's transform: served at
 * GET /api/openapi.json, read at /docs/api (Swagger UI, shipped in its npm package), validated
 * and held against real answers by the server tests (routes/openapi.test.ts,
 * testing/openapi-answers.ts).
 */

/** Where the document is served, and the reference page that reads it. */
export const OPENAPI_URL = '/api/openapi.json';
export const REFERENCE_PAGE_URL = '/docs/api';

/** The document may be kept by any cache this long: it changes only with a new release. */
const DOCUMENT_MAX_AGE_S = 300;

/**
 * The API is used under the merchant's agreement, not an open licence: SPDX names such terms
 * with a LicenseRef of the document's own.
 */
const DOCUMENT_LICENSE = {
  name: 'Proprietary: used under the merchant agreement',
  identifier: 'LicenseRef-Proprietary',
};

/** Host names that reach only the reader's own machine (RFC 6761 localhost, loopback). */
const isLocalHost = (hostname: string) =>
  hostname === 'localhost' ||
  hostname.endsWith('.localhost') ||
  hostname.startsWith('127.') ||
  hostname === '[::1]';

/**
 * Where the API is: the server's PUBLIC_URL, or, on a developer's own server (a local address),
 * `/`, OpenAPI's default, which a client resolves against where it read the document. A
 * published document never names localhost: to its reader that is their own machine.
 */
export function documentServers(publicUrl: string): Array<{ url: string; description: string }> {
  return isLocalHost(new URL(publicUrl).hostname)
    ? [{ url: '/', description: 'The server that serves this document' }]
    : [{ url: publicUrl, description: 'This server' }];
}

/**
 * Routes that are not for developers: the page's HTML and files (and this reference page's),
 * test-only routes, and the ones UNDOCUMENTED_ROUTES names.
 */
const isUndocumented = (key: string, url: string) =>
  !(url.startsWith('/api/') || DOCUMENTED_OUTSIDE_API.includes(url)) ||
  url.startsWith('/api/test/') ||
  key in UNDOCUMENTED_ROUTES;

/**
 * Named components: the catalogue's error body, shared by every operation, and the one
 * recursive schema (a signed grant's JSON payload), which JSON Schema can only state by name.
 */
const documentRegistry = z.registry<{ id: string }>();
documentRegistry.add(ZApiErrorBody, { id: 'ApiError' });
documentRegistry.add(ZJsonValue, { id: 'JsonValue' });

const zodTransform = createJsonSchemaTransform({ schemaRegistry: documentRegistry });
const zodTransformObject = createJsonSchemaTransformObject({ schemaRegistry: documentRegistry });

type TTransformInput = Parameters<typeof zodTransform>[0];

/**
 * One route as the document states it: its zod schemas as JSON Schema, its tag, the credentials
 * its guard asks for (read off its hooks, routes/guard-kinds.ts), and an event stream's answer
 * as text/event-stream.
 */
function transformRoute(input: TTransformInput) {
  const { url, route } = input;
  const key = `${[route.method].flat().join(',')} ${url}`;
  if (isUndocumented(key, url) || route.schema?.hide) {
    return { schema: { hide: true }, url };
  }
  const transformed = zodTransform(input) as { schema: Record<string, unknown>; url: string };
  const schema: Record<string, unknown> = { ...transformed.schema, tags: [tagOf(url)] };
  const guard = guardKindOf(route.onRequest, route.preValidation);
  const inHandler = HANDLER_SECURITY[key];
  if (guard) schema.security = [{ [guard]: [] }];
  else if (inHandler) {
    schema.security = [...(inHandler.optional ? [{}] : []), { [inHandler.kind]: [] }];
  } else {
    // Stated, not left out: an operation open to anyone (its link, ticket or signature, if any,
    // is a parameter) reads apart from one whose credentials were forgotten.
    schema.security = [];
  }
  const response = { ...(schema.response as Record<string, unknown>) };
  const nonJson = NON_JSON_ANSWERS[key];
  if ((route as { sse?: unknown }).sse) response['200'] = eventStreamOf(url);
  else if (nonJson) {
    response['200'] = {
      description: nonJson.description,
      content: { [nonJson.type]: { schema: { type: 'string', format: 'binary' } } },
    };
  }
  schema.response = response;
  return { schema, url };
}

const schemaNamesIn = (value: unknown) =>
  [...JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map(
    ([, name]) => name ?? '',
  );

/**
 * The document without the named schemas nothing in it refers to: the transform names an input
 * twin of each registered schema (`ApiErrorInput`), and the error body is only ever an answer.
 */
function withoutUnusedSchemas(document: Record<string, unknown>): Record<string, unknown> {
  const components = document.components as { schemas?: Record<string, unknown> } | undefined;
  const schemas = components?.schemas ?? {};
  const used = new Set<string>();
  const pending = schemaNamesIn({ ...document, components: { ...components, schemas: {} } });
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (used.has(name)) continue;
    used.add(name);
    pending.push(...schemaNamesIn(schemas[name]));
  }
  return {
    ...document,
    components: {
      ...components,
      schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name))),
    },
  };
}

/**
 * Registers the document's generator: before any route, so that it sees every one (its onRoute
 * hook records them).
 */
export async function registerOpenApi(app: FastifyInstance, config: TConfig): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Oya consent API',
        version: '1.0.0',
        description: API_DESCRIPTION,
        license: DOCUMENT_LICENSE,
      },
      servers: documentServers(config.publicUrl),
      tags: API_TAGS,
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: transformRoute,
    transformObject: (documentObject) => {
      const document = zodTransformObject(documentObject) as Record<string, unknown>;
      return withoutUnusedSchemas(addExamples({ ...document, webhooks: webhooksSection() }));
    },
  });
}

/** GET /api/openapi.json and the reference page (/docs/api). */
export const openApiRoutes: FastifyPluginAsync = async (app) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    OPENAPI_URL,
    {
      schema: {
        operationId: 'getOpenApiDocument',
        summary: 'Get this OpenAPI 3.1 document',
        response: jsonAnswers({ 200: z.record(z.string(), z.unknown()) }),
      },
    },
    async (_request, reply) => {
      // Public and the same for everyone: any cache may keep it a while.
      reply.header('Cache-Control', `public, max-age=${DOCUMENT_MAX_AGE_S}`);
      return app.swagger() as unknown as Record<string, unknown>;
    },
  );
  await app.register(fastifySwaggerUi, {
    routePrefix: REFERENCE_PAGE_URL,
    // The page reads the same document from /docs/api/json; it asks no outside validator.
    uiConfig: { deepLinking: true },
    // The reference of this API alone: no bar to explore another document, the product's title.
    theme: {
      title: 'API reference - Oya consent',
      css: [
        {
          filename: 'reference.css',
          // The error table stays readable at 390 px: a long code wraps instead of the message.
          content:
            '.swagger-ui .topbar { display: none; } .swagger-ui .info td code { word-break: break-all; }',
        },
      ],
    },
    // The UI's files are scripts and styles of its own origin; nothing inline runs.
    staticCSP: {
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'style-src': ["'self'"],
      'img-src': ["'self'", 'data:'],
      'connect-src': ["'self'"],
      'object-src': ["'none'"],
      'base-uri': ["'none'"],
      'form-action': ["'self'"],
      'frame-ancestors': ["'none'"],
    },
  });
};
