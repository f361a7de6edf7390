import type { ServerOptions } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { TConfig } from './config';

/** Node looks for requests past their time this often by default; see below. */
const NODE_CHECK_INTERVAL_MS = 30_000;

/**
 * The server's limits on slow clients (docs/security.md), as Fastify and Node's HTTP server take
 * them. Node times the request until it has arrived whole: a request whose headers or body
 * trickle in is answered 408 REQUEST_TIMEOUT (http-errors.ts) and closed, while an event stream,
 * whose request arrived at once, is no longer timed by it. The connection's quiet limit
 * (Fastify's connectionTimeout, a socket timeout) exceeds the streams' heartbeat (config.ts).
 */
export function serverTimeoutOptions(timeouts: TConfig['timeouts']): {
  connectionTimeout: number;
  keepAliveTimeout: number;
  requestTimeout: number;
  http: ServerOptions;
} {
  return {
    connectionTimeout: timeouts.connectionMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    requestTimeout: timeouts.requestMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      // Node cuts a late request at its next check, 30 s apart by default: a quarter of the
      // shortest limit keeps each cut within a quarter of its time.
      connectionsCheckingInterval: Math.min(
        NODE_CHECK_INTERVAL_MS,
        Math.ceil(Math.min(timeouts.headersMs, timeouts.requestMs) / 4),
      ),
    },
  };
}

/**
 * Lets a closing server end its kept-alive connections at once. Node's close() ends only the
 * connections idle at that moment; one whose request was under way (a provider's notice, a
 * payer's call) would stay open after its answer until KEEP_ALIVE_TIMEOUT_MS ran out, holding the
 * close (and a rolling restart) that long. From the close on, each answer says `connection:
 * close`, and Node ends its connection once the answer is sent. A request that arrives on a kept
 * connection after the close is answered 503 and closed by Fastify itself (return503OnClosing).
 */
export function endConnectionsWhenClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) void reply.header('connection', 'close');
    return payload;
  });
}
