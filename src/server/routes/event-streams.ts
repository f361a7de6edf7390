import fastifySse from '@fastify/sse';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '../../domain/errors';
import { ZIdentifier } from '../../domain/schemas/fields';
import { ZStreamTicketResponse } from '../../domain/schemas/payment';
import type { TRouteContext } from '../context';
import type { TEventHub } from '../events/event-hub';
import { eventStreams, latestEventId } from '../events/event-log';
import type { TStreamSlots } from '../events/stream-slots';
import { assertOwnLink } from '../services/linking/link-confirmation';
import { AppError } from '../app-error';
import { issueStreamTicket, redeemStreamTicket } from '../services/event-stream-tickets';
import { paymentEventsSeenBy } from '../services/payments/origin-views';
import {
  hearsAttempt,
  loadReadable,
  type TPaymentReader,
} from '../services/payments/payment-reads';
import { chargeTokensOf, ZChargeTokens } from './payment-access';
import { payerOf, requirePayer } from './payer-guard';
import type { TZodApp } from './zod-app';
import { jsonAnswers } from './responses';

/** An SSE route's 200 is an event stream, not JSON: declared so the route table says so. */
const ZEventStream = z.string().describe('text/event-stream');

const STREAM_ONLY_MESSAGE = 'Accept: this event stream is sent only as text/event-stream';

const ZTicket = z.string().regex(/^est_[\w-]{32}$/, 'must be a stream ticket');

const ZStreamQuery = z.object({
  ticket: ZTicket.optional(),
  /** For a payment of a consent that needs no sign-in: the link it is opened from (spec §6). */
  consentId: z.optional(ZIdentifier),
  clientId: z.optional(ZIdentifier),
  /**
   * With the consent link: the charge tokens the page holds, which make it the reader of the
   * attempts it made (docs/payments.md "Who reads a payment").
   */
  chargeToken: ZChargeTokens,
  /** Where a client without Last-Event-ID resumes (a reopened stream with a new ticket). */
  lastEventId: z.coerce.number().int().nonnegative().optional(),
});

const ZTicketRequest = z.discriminatedUnion('stream', [
  z.strictObject({ stream: z.literal('payment'), paymentId: ZIdentifier }),
  z.strictObject({ stream: z.literal('card-linking') }),
  z.strictObject({ stream: z.literal('account-link'), accountLinkId: ZIdentifier }),
]);

/** What the streams work with: the routes' context, the event hub and the addresses' slots. */
type TStreamContext = TRouteContext & { hub: TEventHub; slots: TStreamSlots };

/**
 * Streams the events of `stream` after the client's last one, until it goes away, each as
 * `seen` shows it to this reader (in order: one is sent only after the one before it). The
 * client names where it resumes (Last-Event-ID, sent by EventSource on reconnect, or
 * ?lastEventId=); a client that names nothing hears the stream from `unnamed`: its `start`,
 * for a stream that is one attempt's own, or its `latest` event, for a stream several attempts
 * share, so a page is shown only what happened after it asked. `seen` answering null keeps an
 * event from this reader.
 *
 * HEAD answers the headers and closes the connection: nothing is watched, no slot is taken, and
 * the socket is not kept alive for a next request. A GET takes one of its address's slots
 * (SSE_MAX_PER_ADDRESS) for as long as its socket lives, however it ends.
 */
const pipe = async (
  ctx: TStreamContext,
  request: FastifyRequest,
  reply: FastifyReply,
  stream: string,
  {
    lastEventId,
    unnamed = 'start',
    seen,
  }: {
    lastEventId: number | undefined;
    unnamed?: 'start' | 'latest';
    seen?: (data: Record<string, unknown>) => Promise<Record<string, unknown> | null>;
  },
) => {
  // HEAD answers what GET would, without the stream: its status and headers, then the end.
  if (request.method === 'HEAD') {
    void reply.header('connection', 'close');
    reply.sse.sendHeaders();
    return;
  }
  const release = ctx.slots.take(request.ip);
  if (!release) throw new AppError('TOO_MANY_STREAMS');
  // The socket's end frees the slot, whether the client closed it, it dropped, or the server did.
  reply.raw.once('close', release);
  if (reply.raw.destroyed) release();
  const header = Number(reply.sse.lastEventId ?? request.headers['last-event-id']);
  const named = Number.isSafeInteger(header) && header > 0 ? header : lastEventId;
  const after = named ?? (unnamed === 'latest' ? await latestEventId(ctx.db, stream) : 0);
  reply.sse.keepAlive();
  await reply.sse.send({ event: 'ready', data: { stream: stream.split(':')[0] } });
  let sending = Promise.resolve();
  const stop = await ctx.hub.watch(stream, after, (event) => {
    sending = sending
      .then(async () => {
        const data = seen ? await seen(event.data) : event.data;
        if (!data || !reply.sse.isConnected) return;
        await reply.sse.send({ id: String(event.id), event: event.type, data });
      })
      .catch(() => undefined);
  });
  reply.sse.onClose(stop);
};

/**
 * The payment stream's events as `reader` hears them: an event about an attempt that is not
 * theirs to hear is kept from them (hearsAttempt: a stream opened before another payer's
 * attempt does not follow it), and the account the money came from is whole only to the payer
 * who paid.
 */
const paymentEventsHeardBy = (
  ctx: Pick<TRouteContext, 'db'>,
  paymentId: string,
  reader: TPaymentReader,
) => {
  const masked = paymentEventsSeenBy(
    ctx.db,
    paymentId,
    'payerId' in reader.access ? reader.access.payerId : null,
  );
  const heard = new Map<string, Promise<boolean>>();
  return async (data: Record<string, unknown>) => {
    const attemptId = (data as { attempt?: { attemptId?: unknown } }).attempt?.attemptId;
    if (typeof attemptId !== 'string') return null;
    let hears = heard.get(attemptId);
    if (!hears) {
      // A failed lookup keeps the event back and asks again for the next one.
      hears = hearsAttempt(ctx.db, attemptId, reader).catch(() => {
        heard.delete(attemptId);
        return false;
      });
      heard.set(attemptId, hears);
    }
    return (await hears) ? masked(data) : null;
  };
};

/** A signed-in payer's ticket to a stream: a payment's, an account link's, their card linking's. */
function registerStreamTicketRoute(api: TZodApp, ctx: TStreamContext) {
  api.post(
    '/api/events/tickets',
    {
      onRequest: requirePayer(ctx, { identifyTo: 'ignore' }),
      schema: {
        operationId: 'createStreamTicket',
        summary: 'Get a ticket that opens an event stream',
        body: ZTicketRequest,
        response: jsonAnswers({ 200: ZStreamTicketResponse }),
      },
    },
    async (request) => {
      const { payerId } = payerOf(request);
      const now = ctx.clock.now();
      let stream: string;
      if (request.body.stream === 'payment') {
        const reader = { access: { payerId }, chargeTokens: [] };
        const { payment } = await loadReadable(ctx.db, request.body.paymentId, reader);
        stream = eventStreams.payment(payment.id);
      } else if (request.body.stream === 'account-link') {
        await assertOwnLink(ctx.db, payerId, request.body.accountLinkId);
        stream = eventStreams.accountLink(request.body.accountLinkId);
      } else {
        stream = eventStreams.cardLinking(payerId);
      }
      // Where the stream stood at issue: a page opening it from there hears only what happens
      // after it asked.
      const lastEventId = await latestEventId(ctx.db, stream);
      return {
        success: true as const,
        ...(await issueStreamTicket(ctx.db, stream, payerId, now)),
        lastEventId,
      };
    },
  );
}

/** A payment's stream, opened with a ticket or with the consent link and its charge tokens. */
function registerPaymentStreamRoute(api: TZodApp, ctx: TStreamContext) {
  api.get(
    '/api/events/payments/:paymentId',
    {
      sse: 'only',
      schema: {
        operationId: 'streamPaymentEvents',
        summary: 'Stream a payment’s status',
        params: z.object({ paymentId: ZIdentifier }),
        querystring: ZStreamQuery,
        response: jsonAnswers({ 200: ZEventStream }),
      },
    },
    async (request, reply) => {
      const { paymentId } = request.params;
      const { ticket, consentId, clientId, lastEventId } = request.query;
      const stream = eventStreams.payment(paymentId);
      // Who reads: the payer the ticket was issued to, or the page holding the consent link and
      // its charge tokens. Asked again here, not only when the ticket was issued: the payment may
      // since have become another payer's.
      let reader: TPaymentReader;
      if (ticket) {
        const { payerId } = await redeemStreamTicket(
          ctx.db,
          ticket,
          ctx.clock.now(),
          (named) => named === stream,
        );
        if (!payerId) throw new AppError('STREAM_TICKET_INVALID');
        reader = { access: { payerId }, chargeTokens: [] };
        await loadReadable(ctx.db, paymentId, reader);
      } else {
        if (!consentId || !clientId) throw new AppError('SIGN_IN_REQUIRED');
        reader = {
          access: { consentId },
          chargeTokens: chargeTokensOf(request.query.chargeToken),
        };
        const readable = await loadReadable(ctx.db, paymentId, reader);
        if (readable.clientId !== clientId) throw new AppError('CONSENT_FORBIDDEN');
      }
      await pipe(ctx, request, reply, stream, {
        lastEventId,
        seen: paymentEventsHeardBy(ctx, paymentId, reader),
      });
    },
  );
}

/** The streams a ticket alone opens: a bank validation's, an account link's, the card linking's. */
function registerTicketStreamRoutes(api: TZodApp, ctx: TStreamContext) {
  api.get(
    '/api/events/bank-validation/:validationId',
    {
      sse: 'only',
      schema: {
        operationId: 'streamBankValidationEvents',
        summary: 'Stream an account search’s bank validation',
        params: z.object({ validationId: ZIdentifier }),
        querystring: ZStreamQuery,
        response: jsonAnswers({ 200: ZEventStream }),
      },
    },
    async (request, reply) => {
      const { ticket, lastEventId } = request.query;
      if (!ticket) throw new AppError('STREAM_TICKET_INVALID');
      // The account search handed its payer a ticket for this validation's stream alone: all of
      // it is that search's, whose results may have come before the page opened it.
      const stream = eventStreams.bankValidation(request.params.validationId);
      await redeemStreamTicket(ctx.db, ticket, ctx.clock.now(), (named) => named === stream);
      await pipe(ctx, request, reply, stream, { lastEventId });
    },
  );

  api.get(
    '/api/events/account-links/:accountLinkId',
    {
      sse: 'only',
      schema: {
        operationId: 'streamAccountLinkEvents',
        summary: 'Stream an account link’s progress',
        params: z.object({ accountLinkId: ZIdentifier }),
        querystring: ZStreamQuery,
        response: jsonAnswers({ 200: ZEventStream }),
      },
    },
    async (request, reply) => {
      const { ticket, lastEventId } = request.query;
      if (!ticket) throw new AppError('STREAM_TICKET_INVALID');
      // Tickets for a link's stream are issued to the link's own payer alone. The stream is that
      // one link's (each attempt is a new link): all of it is the attempt the page made.
      const stream = eventStreams.accountLink(request.params.accountLinkId);
      await redeemStreamTicket(ctx.db, ticket, ctx.clock.now(), (named) => named === stream);
      await pipe(ctx, request, reply, stream, { lastEventId });
    },
  );

  api.get(
    '/api/events/card-linking',
    {
      sse: 'only',
      schema: {
        operationId: 'streamCardLinkingEvents',
        summary: 'Stream the payer’s card linking',
        querystring: ZStreamQuery,
        response: jsonAnswers({ 200: ZEventStream }),
      },
    },
    async (request, reply) => {
      const { ticket, lastEventId } = request.query;
      if (!ticket) throw new AppError('STREAM_TICKET_INVALID');
      // The ticket names the payer's own stream (issued to them alone), which every card link
      // of theirs shares: one opened without a position hears nothing of earlier links.
      const { stream } = await redeemStreamTicket(ctx.db, ticket, ctx.clock.now(), (named) =>
        named.startsWith(eventStreams.cardLinking('')),
      );
      await pipe(ctx, request, reply, stream, { lastEventId, unnamed: 'latest' });
    },
  );
}

/**
 * The page's live events over server-sent events (spec §7 "Event streams"; docs/payments.md):
 * each event is a row of the event log, its id the SSE id, so a reconnect with Last-Event-ID
 * gets what it missed. A signed-in payer opens a stream with a ticket; on a consent that needs no
 * sign-in, a page opens a payment's stream with the consent link and the charge tokens it holds.
 */
export const eventStreamRoutes: FastifyPluginAsync<TStreamContext> = async (app, ctx) => {
  // A comment line every SSE_HEARTBEAT_MS (15 s) keeps proxies from closing a quiet stream.
  await app.register(fastifySse, { heartbeatInterval: ctx.config.sseHeartbeatMs });
  // The plugin answers an Accept that refuses text/event-stream (application/json) 406 in a
  // shape of its own, which the routes' declared answers refuse: sent in the catalogue's.
  app.addHook('preSerialization', async (_request, reply, payload) =>
    reply.statusCode === 406 ? errorBody('NOT_ACCEPTABLE', STREAM_ONLY_MESSAGE) : payload,
  );
  const api = app.withTypeProvider<ZodTypeProvider>();
  registerStreamTicketRoute(api, ctx);
  registerPaymentStreamRoute(api, ctx);
  registerTicketStreamRoutes(api, ctx);
};
