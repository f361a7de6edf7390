import { trace } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';
import { IDENTIFY_TO_HEADER } from '../domain/constants';

/*
 * What the server logs, and what it never does (docs/security.md): no request bodies, no query
 * strings (they carry payers' phone numbers), no SQL parameters (they are request values:
 * names, narrations, nonces), no database detail lines (they quote the offending value), and no
 * credentials. Requests are named by method, path and id; errors by type, code and message.
 */

/** The path of a URL without its query string. */
export function pathOnly(url: string): string {
  const at = url.indexOf('?');
  return at === -1 ? url : url.slice(0, at);
}

/** A Drizzle "Failed query" message keeps its SQL text (placeholders only) and loses its params. */
function withoutParams(text: string): string {
  return text.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, '\nparams: [redacted]');
}

type TLoggedError = {
  type: string;
  message: string;
  code?: string;
  stack: string;
  cause?: TLoggedError;
};

/** An error as the log shows it: its own words and the SQL it ran, never the values it held. */
export function serializeError(error: unknown, depth = 0): TLoggedError {
  if (!(error instanceof Error))
    return { type: typeof error, message: '[not an Error]', stack: '' };
  const code = (error as { code?: unknown }).code;
  const logged: TLoggedError = {
    type: error.constructor.name,
    message: withoutParams(error.message),
    stack: withoutParams(error.stack ?? ''),
  };
  if (typeof code === 'string') logged.code = code;
  // A database error's `detail` and `where` quote row values: only its message and code go.
  if (error.cause !== undefined && depth < 3) logged.cause = serializeError(error.cause, depth + 1);
  return logged;
}

/** Fastify's request line in the log, with the query string left out. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: pathOnly(request.url),
    remoteAddress: request.ip,
  };
}

/**
 * The trace and span of a line written inside a span (docs/operations.md "Traces"), so a log line
 * leads to its trace; nothing while tracing is off.
 */
function traceOfLine(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}

/**
 * Fields of request bodies that hold a card's data, a PIN, a BVN or NIN, a one-time code, a token
 * or a key (docs/operations.md "Logs"). Nothing logs a body; should a line ever carry one, these
 * are censored at any of its first four levels. log-redaction-fields.test.ts finds every such
 * field in the OpenAPI document's request bodies, so a new one fails the test until it is here.
 */
export const REDACTED_FIELDS = [
  'bvn',
  'bvnData',
  'cardDetails',
  'cardNumber',
  'chargeToken',
  'cvv',
  'encryptedAesKey',
  'encryptedCardNumber',
  'encryptedCvv',
  'encryptedData',
  'encryptedExpiryDate',
  'encryptedPin',
  'expirydate',
  'formUpdateToken',
  'icc_data',
  'ninData',
  'otp',
  'pan',
  'pin',
  'pin_block',
  'secret',
  'token',
  'track2',
] as const;

/** A field censored at any of a line's first four levels. */
const atAnyLevel = (fields: readonly string[]) =>
  fields.flatMap((field) => ['', '*.', '*.*.', '*.*.*.'].map((prefix) => `${prefix}${field}`));

const redactedPaths = atAnyLevel(REDACTED_FIELDS);

/**
 * Logger options of the app: the serializers above, headers that carry credentials, and the
 * providers' secret settings (`secretSettings`: each descriptor's, providers/adapters.ts).
 */
export function loggerOptions(level: string, secretSettings: readonly string[] = []) {
  return {
    level,
    mixin: traceOfLine,
    serializers: { req: serializeRequest, err: (error: unknown) => serializeError(error) },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        `req.headers["${IDENTIFY_TO_HEADER}"]`,
        ...redactedPaths,
        ...atAnyLevel(secretSettings),
      ],
      censor: '[redacted]',
    },
  };
}
