import type { Socket } from 'node:net';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_CATALOGUE, errorBody, type TErrorCode } from '../domain/errors';
import { challenge, MERCHANT_CHALLENGE, operatorChallenge } from './auth-challenges';
import { AppError } from './app-error';

/*
 * Every 4xx and 5xx the server can produce carries the catalogue shape
 * `{ success: false, error: { code, message } }`: our own errors, schema failures, what Fastify
 * and Node refuse before a route runs (bad URL encoding, over-long parameters, bodies, headers,
 * malformed requests). docs/security.md lists them.
 */

/** Fastify's own refusals, by its error code, as catalogue entries with a message of ours. */
const FASTIFY_ERRORS: Record<string, { code: TErrorCode; message?: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'VALIDATION_FAILED', message: 'body: is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'VALIDATION_FAILED',
    message: 'body: must not be empty when Content-Type is application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'VALIDATION_FAILED',
    message: 'Content-Length: does not match the body',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE' },
  FST_ERR_CTP_INVALID_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE' },
  FST_ERR_BAD_URL: { code: 'VALIDATION_FAILED', message: 'url: is not valid percent-encoding' },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'URL_TOO_LONG' },
  FST_ERR_ASYNC_CONSTRAINT: { code: 'NOT_FOUND' },
};

/** The catalogue entry for any other client error, by its HTTP status. */
function codeForStatus(status: number): TErrorCode {
  const byStatus: Partial<Record<number, TErrorCode>> = {
    404: 'NOT_FOUND',
    406: 'NOT_ACCEPTABLE',
    408: 'REQUEST_TIMEOUT',
    413: 'PAYLOAD_TOO_LARGE',
    414: 'URL_TOO_LONG',
    415: 'UNSUPPORTED_MEDIA_TYPE',
    429: 'RATE_LIMITED',
    431: 'HEADERS_TOO_LARGE',
  };
  return byStatus[status] ?? 'VALIDATION_FAILED';
}

/**
 * Codes that say one scheme's credentials are absent or wrong, wherever they are raised: their 401
 * carries that scheme's challenge. The payer's codes are shared with sign-in, whose refusals
 * challenge nothing, so the payer guard adds its own (routes/payer-guard.ts).
 */
const CHALLENGES: Partial<Record<TErrorCode, (request: FastifyRequest) => string>> = {
  INVALID_CLIENT_CREDENTIALS: () => MERCHANT_CHALLENGE,
  INVALID_ADMIN_TOKEN: operatorChallenge,
};

/** A zod issue as far as naming its field goes; a union's carries each option's own issues. */
type TIssue = { path: readonly PropertyKey[]; message: string; errors?: unknown };

/**
 * The issue that names the field. A union no option matched (a card charge's body is one of
 * several shapes) says only 'Invalid input' at the union itself; inside it, the option the input
 * came closest to (the fewest issues; the first of equals) says which field is wrong, e.g.
 * 'cardDetails.encryptedCardNumber.iv: Invalid input: expected string, received undefined'. Its
 * paths are relative to the union, so they are joined on to the union's own.
 */
function namedIssue(issue: TIssue): TIssue {
  const options = Array.isArray(issue.errors) ? (issue.errors as unknown[][]) : [];
  const closest = options
    .filter((option) => Array.isArray(option) && option.length > 0)
    .reduce<unknown[] | null>(
      (best, option) => (best === null || option.length < best.length ? option : best),
      null,
    );
  const inner = closest?.[0] as TIssue | undefined;
  if (!inner || !Array.isArray(inner.path) || typeof inner.message !== 'string') return issue;
  const named = namedIssue(inner);
  return { path: [...issue.path, ...named.path], message: named.message };
}

function sendCatalogue(reply: FastifyReply, code: TErrorCode, message?: string) {
  return reply.code(ERROR_CATALOGUE[code].status).send(errorBody(code, message));
}

/** The app's error handler: catalogue errors as they are, the rest mapped, 500s logged. */
export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    const challengeOf = CHALLENGES[error.code];
    if (challengeOf) challenge(reply, challengeOf(request));
    return sendCatalogue(reply, error.code, error.detail);
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const issue = first
      ? namedIssue({
          path: first.instancePath.split('/').filter((part) => part !== ''),
          message: first.message ?? 'is not valid',
          errors: first.params.errors,
        })
      : { path: [], message: 'is not valid' };
    const where = issue.path.join('.') || error.validationContext;
    return sendCatalogue(reply, 'VALIDATION_FAILED', `${where}: ${issue.message}`);
  }
  const fastifyCode = (error as Partial<FastifyError>).code;
  const known = fastifyCode ? FASTIFY_ERRORS[fastifyCode] : undefined;
  if (known) return sendCatalogue(reply, known.code, known.message);
  const status = (error as Partial<FastifyError>).statusCode;
  if (status && status >= 400 && status < 500) {
    return reply.code(status).send(errorBody(codeForStatus(status)));
  }
  request.log.error({ err: error }, 'unhandled error');
  return sendCatalogue(reply, 'API_REQUEST_FAILED');
}

/** What Fastify's router refuses before any route runs (bad encoding, over-long parameter). */
export function handleFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  // The reply is sent by handleError; Fastify waits for nothing from this handler.
  void handleError(error, request, reply);
}

/**
 * What Node's HTTP parser refuses before Fastify sees a request: headers too large, malformed
 * request lines, requests too slow to arrive. Answered in the catalogue shape, then closed.
 */
export function handleClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code: TErrorCode =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? 'HEADERS_TOO_LARGE'
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'REQUEST_TIMEOUT'
        : 'VALIDATION_FAILED';
  const status = ERROR_CATALOGUE[code].status;
  const body = JSON.stringify(
    errorBody(code, code === 'VALIDATION_FAILED' ? 'The request is malformed' : undefined),
  );
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  };
  // A request Node already handed on (its body broke off mid-way) has a response object of its
  // own: the answer goes through it, unless it has begun, which cannot be replaced.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (inFlight) {
    if (!inFlight.headersSent) inFlight.writeHead(status, headers).end(body);
  } else if (socket.writable) {
    const head = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${head}\r\n${body}`);
  }
  socket.end();
}
