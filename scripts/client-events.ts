// `npm run client:listen` and `npm run client:trigger` (docs/webhooks.md, "Events on your
// machine"): a client's events forwarded to a receiver on this machine, signed with a secret of
// the session, and test events fired at will, by asking the running server (operator-file.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { z } from 'zod/mini';
import { MERCHANT_CONSENTS_MAX_PAGE_SIZE } from '../src/domain/schemas/merchant-api';
import {
  WEBHOOK_EVENT_TYPES,
  ZCreateWebhookRequest,
  ZMerchantEventsResponse,
  ZWebhookEventType,
  type TMerchantEventsQuery,
  type TWebhookEventType,
  type TWebhookPayload,
} from '../src/domain/schemas/webhooks';
import { ZTestEventResponse } from '../src/domain/test-events';
import { loadConfig, type TConfig } from '../src/server/config';
import { newSecret, webhookSignatures } from '../src/server/services/merchants/webhook-signing';
import { operatorCall, print, runCommand, runningServer, UsageError } from './operator-commands';

const USAGE = {
  listen: 'npm run client:listen -- --client cli_… --forward-to http://localhost:4000/hooks',
  trigger: 'npm run client:trigger -- <type> --client cli_… (--client is required)',
};
type TCommand = keyof typeof USAGE;

/** How often listen asks for new events. */
const POLL_MS = 1_000;
/**
 * How far before the newest event it has seen listen looks again at each poll: an event's time
 * is taken before its transaction commits, so one may appear after a later one was listed.
 */
const LOOK_BACK_MS = 2 * 60_000;
/** A receiver that has not answered in this long is given up on, as a delivery is. */
const FORWARD_TIMEOUT_MS = 10_000;

type TEventPage = z.infer<typeof ZMerchantEventsResponse>;

/**
 * A client's events on the running server. It is looked up at each call, so a listen that
 * outlives a restart of the server finds the new one.
 */
function serverEvents(config: TConfig, clientId: string) {
  const server = () => {
    const running = runningServer(config);
    if (running) return running;
    throw new Error(
      config.databaseUrl
        ? 'client:listen and client:trigger ask a server on PGlite: one on PostgreSQL writes no operator file (docs/webhooks.md)'
        : `No server runs on ${config.dataDir}: start it (npm start), then run this again`,
    );
  };
  const events = `/api/operator/clients/${encodeURIComponent(clientId)}/events`;
  return {
    where: () => `the running server (pid ${server().pid})`,
    list: (query: Partial<TMerchantEventsQuery>): Promise<TEventPage> => {
      const search = new URLSearchParams(
        Object.entries(query).map(([key, value]) => [key, String(value)]),
      );
      return operatorCall(server())(
        'GET',
        `${events}?${search}`,
        undefined,
        ZMerchantEventsResponse,
      );
    },
    fire: async (type: TWebhookEventType): Promise<TWebhookPayload> =>
      (await operatorCall(server())('POST', events, { type }, ZTestEventResponse)).event,
  };
}
type TServerEvents = ReturnType<typeof serverEvents>;

/**
 * The events listen has seen, to forward each new one once: every poll lists, page after page,
 * what was created since LOOK_BACK_MS before the newest one seen, and keeps what it has not seen.
 */
function eventWatch(list: TServerEvents['list']) {
  const seen = new Map<string, number>();
  let newest: number | null = null;

  /** The events listed since the last look and not seen before, oldest first. */
  async function look(): Promise<TWebhookPayload[]> {
    const from =
      newest === null ? {} : { createdFrom: new Date(newest - LOOK_BACK_MS).toISOString() };
    const listed: TWebhookPayload[] = [];
    let cursor: string | null = null;
    do {
      const page = await list({
        ...from,
        limit: MERCHANT_CONSENTS_MAX_PAGE_SIZE,
        ...(cursor ? { cursor } : {}),
      });
      listed.push(...page.events);
      cursor = page.nextCursor;
    } while (cursor);
    const fresh = listed.filter((event) => !seen.has(event.id)).reverse();
    for (const event of fresh) {
      const at = Date.parse(event.createdAt);
      seen.set(event.id, at);
      newest = Math.max(newest ?? at, at);
    }
    // What is older than the next look's start is never listed again.
    for (const [id, at] of seen) if (newest !== null && at < newest - LOOK_BACK_MS) seen.delete(id);
    return fresh;
  }

  return {
    /** Marks what exists now as seen: from the newest event on, only new ones are forwarded. */
    async start() {
      const [latest] = (await list({ limit: 1 })).events;
      if (!latest) return;
      newest = Date.parse(latest.createdAt);
      await look();
    },
    look,
  };
}

/** Posts `event` to `target` as a delivery would, signed with `secret`; answers its status. */
async function forward(event: TWebhookPayload, target: string, secret: string, stop: AbortSignal) {
  const body = JSON.stringify(event);
  const timestamp = Math.floor(Date.now() / 1_000);
  const response = await fetch(target, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'OyaMoney-Webhooks/1 (client:listen)',
      'webhook-id': event.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': webhookSignatures([secret], event.id, timestamp, body),
      'oya-event-type': event.type,
    },
    body,
    redirect: 'manual',
    signal: AbortSignal.any([stop, AbortSignal.timeout(FORWARD_TIMEOUT_MS)]),
  });
  await response.body?.cancel();
  return response.status;
}

/** Why a forward failed, in a few words: the socket's code rather than fetch's 'fetch failed'. */
function failureOf(error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return `no answer in ${FORWARD_TIMEOUT_MS / 1_000} s`;
  }
  const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
  return cause?.code ?? (error instanceof Error ? error.message : String(error));
}

async function listen(events: TServerEvents, clientId: string, target: string) {
  const secret = newSecret();
  const watch = eventWatch(events.list);
  await watch.start();
  console.log(`Forwarding the events of ${clientId} to ${target} (through ${events.where()})`);
  console.log(`Signing secret for this session: ${secret}`);
  console.log('Ready: new events are forwarded as they come. Ctrl-C stops.');

  const stop = new AbortController();
  const stopNow = () => stop.abort();
  process.once('SIGINT', stopNow);
  process.once('SIGTERM', stopNow);
  const width = Math.max(...WEBHOOK_EVENT_TYPES.map((type) => type.length));
  let lastProblem = '';
  while (!stop.signal.aborted) {
    try {
      for (const event of await watch.look()) {
        const outcome = await forward(event, target, secret, stop.signal).then(
          (status) => `→ ${status}`,
          (error: unknown) => (stop.signal.aborted ? null : `→ failed: ${failureOf(error)}`),
        );
        if (outcome === null) break;
        console.log(`${event.createdAt}  ${event.type.padEnd(width)}  ${event.id}  ${outcome}`);
      }
      lastProblem = '';
    } catch (error) {
      // The server stopped or restarted: said once, asked again every second.
      const problem = error instanceof Error ? error.message : String(error);
      if (problem !== lastProblem) console.error(`Could not list the events: ${problem}`);
      lastProblem = problem;
    }
    await sleep(POLL_MS, undefined, { signal: stop.signal }).catch(() => {});
  }
  process.off('SIGINT', stopNow);
  process.off('SIGTERM', stopNow);
  console.log('Stopped.');
}

async function main() {
  const command = process.argv[2] ?? '';
  if (!(command in USAGE)) throw new UsageError(`Commands: ${Object.keys(USAGE).join(', ')}`);
  const usage = `Usage: ${USAGE[command as TCommand]}`;
  let parsed;
  try {
    parsed = parseArgs({
      args: process.argv.slice(3),
      options: {
        client: { type: 'string' },
        'forward-to': { type: 'string' },
        help: { type: 'boolean' },
      },
      allowPositionals: command === 'trigger',
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${usage}`);
  }
  const { values, positionals } = parsed;
  const types = `Types: ${WEBHOOK_EVENT_TYPES.join(', ')}`;
  if (values.help) {
    console.log(command === 'trigger' ? `${usage}\n${types}` : usage);
    return;
  }
  const clientId = values.client?.trim() ?? '';
  if (!clientId) throw new UsageError(usage);
  const events = serverEvents(loadConfig(), clientId);

  if (command === 'listen') {
    const target = values['forward-to'] ?? '';
    if (!ZCreateWebhookRequest.shape.url.safeParse(target).success) {
      throw new UsageError(`--forward-to must be an http(s) URL\n${usage}`);
    }
    await listen(events, clientId, target);
    return;
  }
  const type = ZWebhookEventType.safeParse(positionals[0]);
  if (!type.success || positionals.length !== 1) throw new UsageError(`${usage}\n${types}`);
  const event = await events.fire(type.data);
  print({ id: event.id, type: event.type, createdAt: event.createdAt });
  console.error(`(through ${events.where()})`);
}

runCommand(main);
