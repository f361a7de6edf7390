import { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../domain/errors';
import { METRICS_URL } from './observability/metrics';

/*
 * What a process of the server does (ROLE, docs/deploy.md): `all` serves every route and works on
 * every job; `api` serves every route and queues jobs for others; `worker` works on the jobs and
 * answers only what an operator's checks ask of it.
 */

/** What a worker answers from the network: its health and its metrics. */
export function servedByWorker(url: string): boolean {
  const path = url.split('?', 1)[0] ?? '';
  return path === '/api/health' || path.startsWith('/api/health/') || path === METRICS_URL;
}

/**
 * A worker's routes answer no one but itself: every route is registered (its jobs call some
 * through app.inject, as the sandbox's notices do), and a request from the network to anything but
 * its health and metrics answers 404, as on a server without it.
 */
export function answerOnlyHealth(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    // app.inject's requests are not the network's: they carry no IncomingMessage.
    if (!(request.raw instanceof IncomingMessage)) return;
    if (servedByWorker(request.url)) return;
    return reply.code(404).send(errorBody('NOT_FOUND'));
  });
}
