import { z } from 'zod';
import { ERROR_CATALOGUE, errorBody, type TErrorCode } from '../../domain/errors';
import {
  ACCOUNT_LINK_PROGRESS_EVENT,
  ZAccountLinkProgressEvent,
} from '../../domain/schemas/account-link';
import { ZCardLinkingEvent } from '../../domain/schemas/card';
import { ZPaymentStatusEvent } from '../../domain/schemas/payment';
import { BANK_VALIDATION_EVENT, ZBankValidationEvent } from '../../domain/schemas/user-account';
import { WEBHOOK_EVENT_SUMMARIES, webhookBodyOf } from '../../domain/schemas/webhook-events';
import { WEBHOOK_EVENT_TYPES } from '../../domain/schemas/webhooks';
import { DASHBOARD_UNDOCUMENTED } from '../routes/dashboard-undocumented';
import type { TGuardKind } from '../routes/guard-kinds';
import { OPERATION_EXAMPLES } from './openapi-examples';

/*
 * What the OpenAPI document says beyond the routes' schemas: its introduction, tags, security
 * schemes, the event streams' events, the webhooks (one entry per event type) and the examples.
 */

const jsonSchemaOf = (schema: z.core.$ZodType, io: 'input' | 'output' = 'output') =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;

/** The catalogue as a table: every code a failure answer may carry. */
const catalogueTable = () =>
  [
    '| Code | Status | Message |',
    '| --- | --- | --- |',
    ...Object.entries(ERROR_CATALOGUE).map(
      ([code, { status, message }]) => `| \`${code}\` | ${status} | ${message} |`,
    ),
  ].join('\n');

export const API_DESCRIPTION = `The merchant API (server to server, \`/api/v1\`), the calls of the payer's page, its event
streams and the webhooks a merchant receives. Made from the routes' own schemas: what this
document says is what the server checks and answers.

**Credentials.** Merchant calls use HTTP Basic with the API client's id and secret
(\`merchantBasic\`). The payer's page uses the payer's session token (\`payerBearer\`), and the
operator's calls the token the server wrote to its data directory (\`operatorBearer\`).

**Retries.** Every mutating merchant call is idempotent: send an \`Idempotency-Key\` header
(up to 200 printable ASCII characters); a retry with the same key and body gets the first answer
back, another body with the same key is 409 \`IDEMPOTENCY_KEY_REUSED\`.

**Errors.** Every failure, of every operation, is answered as
\`{ "success": false, "error": { "code", "message" } }\` (\`ApiError\`) with one of these codes:

${catalogueTable()}

**Event streams** are server-sent events (\`text/event-stream\`): each event's \`id\` is its
position (send it back as \`Last-Event-ID\` or \`?lastEventId=\` to resume), its \`event\` the
name given in the operation, its \`data\` JSON. Streams open with a ticket: from
\`POST /api/events/tickets\` for a payment, an account link or card linking; from the account
search's answer (\`stream.ticket\` of \`GET /api/accounts/search\`) for the bank-validation
stream.

**Payers are told before every debit, and can skip it or pause.** Each scheduled future payment
is debited no sooner than \`DEBIT_NOTICE_HOURS\` (24 by default) after the payer's SMS notice of it;
from that notice the payer can skip that one payment, and on their consents page pause the
consent's future payments and resume them. A skipped payment (\`status: "skipped"\` on
\`GET /api/v1/payments/{paymentId}\`, webhook \`payment.skipped\`) is never collected: ask for it
again with a new consent. While paused (\`pausedAt\` on the consent, \`consent.paused\` and
\`consent.resumed\`), nothing is collected and what falls due is skipped.

**Webhooks** are signed as Standard Webhooks: headers \`webhook-id\`, \`webhook-timestamp\` and
\`webhook-signature\`; see the \`webhooks\` section.`;

export const API_TAGS = [
  { name: 'merchant', description: 'Server-to-server calls of a merchant (HTTP Basic).' },
  { name: 'payer page', description: 'Calls of the payer’s consent page.' },
  { name: 'events', description: 'Server-sent event streams of the page and their tickets.' },
  { name: 'sandbox', description: 'The sandbox’s test fixtures, transfers and devices.' },
  {
    name: 'operator',
    description: 'The operator’s calls (`npm run client:*`) and the process’s metrics.',
  },
  {
    name: 'providers',
    description:
      'Notices a payment provider sends us: its own body, signed by it and verified by its adapter (docs/payments.md “Provider notices”).',
  },
  { name: 'service', description: 'Health, configuration and this document.' },
];

/** The tag of a documented route, from its place in the URL space. */
export function tagOf(url: string): string {
  if (url.startsWith('/api/v1/')) return 'merchant';
  if (url.startsWith('/api/operator/')) return 'operator';
  if (url.startsWith('/api/events/')) return 'events';
  if (url.startsWith('/api/sandbox/')) return 'sandbox';
  if (url.startsWith('/api/providers/')) return 'providers';
  const service = ['/api/health', '/api/health/ready', '/api/public-config', '/api/openapi.json'];
  if (service.includes(url)) return 'service';
  if (url === '/metrics') return 'operator';
  return 'payer page';
}

export const SECURITY_SCHEMES: Record<
  TGuardKind,
  { type: 'http'; scheme: 'basic' | 'bearer'; description: string }
> = {
  merchantBasic: {
    type: 'http',
    scheme: 'basic',
    description: 'The API client’s id and secret: `Authorization: Basic base64(clientId:secret)`.',
  },
  payerBearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'The payer’s session token, from sign-in (`/api/auth/*`).',
  },
  operatorBearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'The operator token the server wrote to `DATA_DIR/operator.json` at start.',
  },
};

/**
 * Routes whose handler, not a guard, reads the payer's token: required (decline) or optional
 * (the holder of the consent link may act without it, spec §6; a bad token is still refused).
 */
export const HANDLER_SECURITY: Record<string, { kind: TGuardKind; optional: boolean }> = {
  'POST /api/consent/:consentId/decline': { kind: 'payerBearer', optional: false },
  'POST /api/consent/:consentId/grant': { kind: 'payerBearer', optional: true },
  'POST /api/payments/card/complete': { kind: 'payerBearer', optional: true },
  'POST /api/payments/card/pin': { kind: 'payerBearer', optional: true },
  'POST /api/payments/:paymentId/attempts/current/cancel': { kind: 'payerBearer', optional: true },
  'POST /api/consent/otp': { kind: 'payerBearer', optional: true },
  'POST /api/payments/:paymentId/transfer': { kind: 'payerBearer', optional: true },
  'POST /api/payments/:paymentId/transfer/confirm': { kind: 'payerBearer', optional: true },
  'GET /api/payments/:paymentId': { kind: 'payerBearer', optional: true },
  'POST /api/card-terminal/raven/chip-purchase': { kind: 'payerBearer', optional: true },
  'GET /api/card-terminal/paystack/terminals': { kind: 'payerBearer', optional: true },
  'POST /api/card-terminal/paystack/push': { kind: 'payerBearer', optional: true },
};

/** Routes outside /api/ that the document states all the same: the operator's metrics. */
export const DOCUMENTED_OUTSIDE_API = ['/metrics'];

/** Routes left out of the document, with why: they are not for developers. */
export const UNDOCUMENTED_ROUTES: Record<string, string> = {
  'DELETE /api/accounts/:accountId': 'a debugging call, absent unless DEBUG_ROUTES is on',
  ...DASHBOARD_UNDOCUMENTED,
};

/** Answers that are not JSON: their media type instead of application/json. */
export const NON_JSON_ANSWERS: Record<string, { type: string; description: string }> = {
  'GET /api/bank-logos/:institutionCode': { type: 'image/svg+xml', description: 'The bank’s logo' },
  'GET /api/card-scheme-logos/:scheme.svg': {
    type: 'image/svg+xml',
    description: 'The card scheme’s logo',
  },
  'GET /metrics': {
    type: 'text/plain',
    description:
      'The Prometheus metrics of the process that answers, in the text exposition format 0.0.4 (docs/operations.md)',
  },
  'GET /api/v1/form-files/:fileId': {
    type: 'application/octet-stream',
    description:
      'The stored file, as its own media type, with Content-Disposition: attachment (docs/forms.md)',
  },
};

/** Each stream's events: their SSE names and the schema of their data. */
const STREAM_EVENTS: Record<string, { name: string; events: Record<string, z.core.$ZodType> }> = {
  '/api/events/payments/:paymentId': {
    name: 'A payment’s status',
    events: { payment_status: ZPaymentStatusEvent },
  },
  '/api/events/bank-validation/:validationId': {
    name: 'An account search’s bank validation (ticket: `stream.ticket` of the search answer)',
    events: { [BANK_VALIDATION_EVENT]: ZBankValidationEvent },
  },
  '/api/events/account-links/:accountLinkId': {
    name: 'An account link’s progress',
    events: { [ACCOUNT_LINK_PROGRESS_EVENT]: ZAccountLinkProgressEvent },
  },
  '/api/events/card-linking': {
    name: 'The payer’s card linking',
    events: Object.fromEntries(
      ZCardLinkingEvent.def.options.map((option): [string, z.core.$ZodType] => {
        // Each option names its event with one literal.
        const [event = ''] = option.shape.event.def.values;
        return [event, option];
      }),
    ),
  },
};

const ZReadyEvent = z.object({ stream: z.string() });

/** An event stream's 200: text/event-stream, with each event's name and data schema. */
export function eventStreamOf(url: string) {
  const stream = STREAM_EVENTS[url];
  const events = { ready: ZReadyEvent, ...stream?.events };
  const lines = Object.keys(events).map((name) =>
    name === 'ready'
      ? '- `ready`: sent first, once the stream listens (`{ "stream": name }`)'
      : `- \`${name}\``,
  );
  return {
    description: [
      `${stream?.name ?? 'Event stream'}: server-sent events, each \`data\` a JSON object.`,
      'Events (`x-events` gives each one’s data schema):',
      ...lines,
    ].join('\n'),
    content: {
      'text/event-stream': {
        schema: { type: 'string' },
        'x-events': Object.fromEntries(
          Object.entries(events).map(([name, schema]) => [name, jsonSchemaOf(schema)]),
        ),
      },
    },
  };
}

const STANDARD_WEBHOOK_HEADERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id (the body’s `id`): the same on every delivery of it; key on it.',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds of this delivery; refuse one more than 5 minutes from your clock.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the endpoint’s secret (`whsec_…`, base64 after the prefix).',
    schema: { type: 'string' },
  },
  {
    name: 'oya-event-type',
    in: 'header',
    required: false,
    description: 'The event type (the body’s `type`), to route on before parsing.',
    schema: { type: 'string' },
  },
];

/** The 3.1 `webhooks` section: one POST per event type, its body and the signing headers. */
export function webhooksSection() {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook.${type}`,
          summary: WEBHOOK_EVENT_SUMMARIES[type],
          tags: ['merchant'],
          // The merchant's endpoint is sent no credentials: the signature headers prove the sender.
          security: [],
          parameters: STANDARD_WEBHOOK_HEADERS,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchemaOf(webhookBodyOf(type)) } },
          },
          responses: {
            '2XX': { description: 'Received: answer once the event is stored, do the work after.' },
            default: { description: 'Any other answer (or none in 10 s) is retried for 3 days.' },
          },
        },
      },
    ]),
  );
}

type TOperation = {
  requestBody?: { content?: Record<string, Record<string, unknown>> };
  responses?: Record<
    string,
    { description?: string; content?: Record<string, Record<string, unknown>> }
  >;
  security?: Array<Record<string, unknown>>;
  parameters?: Array<{ name?: string; in?: string; description?: string }>;
};

/** What an answer of a status means, where its route says nothing more. */
const STATUS_DESCRIPTIONS: Record<string, string> = {
  '200':
    'OK (for a mutating call: also the first answer again, to a retry with its Idempotency-Key)',
  '201': 'Created',
  '202': 'Accepted: under way, finished in the background',
  '4XX': 'A failure the request caused: the catalogue body (`ApiError`); see the examples',
  '5XX': 'Our failure, or the bank’s or card network’s: the catalogue body (`ApiError`)',
};

const IDEMPOTENCY_KEY_DESCRIPTION =
  'Makes a retry safe: the same key with the same body gets the first answer back; with another body, 409 `IDEMPOTENCY_KEY_REUSED`.';

/** Plain words where the generator wrote 'Default Response', and the Idempotency-Key's use. */
function describe(operation: TOperation): void {
  for (const [status, answer] of Object.entries(operation.responses ?? {})) {
    const words = STATUS_DESCRIPTIONS[status];
    if (answer.description === 'Default Response' && words) answer.description = words;
  }
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in === 'header' && parameter.name === 'idempotency-key') {
      parameter.description = IDEMPOTENCY_KEY_DESCRIPTION;
    }
  }
}

/** The failures every operation of a kind may answer, besides its own. */
function commonFailures(operation: TOperation): TErrorCode[] {
  const guard = Object.keys(operation.security?.[0] ?? {})[0];
  const codes: TErrorCode[] = [];
  if (operation.requestBody || operation.parameters?.length) codes.push('VALIDATION_FAILED');
  if (guard === 'merchantBasic') codes.push('INVALID_CLIENT_CREDENTIALS', 'RATE_LIMITED');
  if (guard === 'payerBearer') codes.push('AUTH_TOKEN_UNAVAILABLE');
  if (guard === 'operatorBearer') codes.push('INVALID_ADMIN_TOKEN');
  return codes;
}

const mediaExamples = (named: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(named).map(([name, value]) => [name, { value }]));

/**
 * Adds the examples: each listed operation's request and answers (openapi-examples.ts), and on
 * every operation's 4XX the catalogue failures it may answer.
 */
export function addExamples(document: Record<string, unknown>): Record<string, unknown> {
  const paths = document.paths as Record<string, Record<string, TOperation>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      describe(operation);
      const own = OPERATION_EXAMPLES[`${method.toUpperCase()} ${path}`];
      const json = operation.requestBody?.content?.['application/json'];
      if (own?.request && json) json.examples = mediaExamples(own.request);
      for (const [status, answer] of Object.entries(own?.responses ?? {})) {
        const media = operation.responses?.[status]?.content?.['application/json'];
        if (!media) throw new Error(`openapi examples: ${method} ${path} has no ${status} answer`);
        media.examples = mediaExamples(answer);
      }
      const failure = operation.responses?.['4XX']?.content?.['application/json'];
      if (failure) {
        const codes = [...new Set([...(own?.failures ?? []), ...commonFailures(operation)])];
        failure.examples = Object.fromEntries(
          codes.map((code) => [code, { value: errorBody(code) }]),
        );
      }
    }
  }
  return document;
}
