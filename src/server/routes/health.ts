import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZHealthResponse,
  ZHealthUnavailableResponse,
  ZNotReadyResponse,
  ZReadyResponse,
  type TDatabaseKind,
} from '../../domain/schemas/health';
import type { TRouteContext } from '../context';
import { pingDatabase, readiness } from '../services/health';
import { jsonAnswers } from './responses';

/**
 * GET /api/health: liveness, 200 once the server and its database answer. GET /api/health/ready:
 * readiness, 503 with the reasons while the database, Redis (when configured) or the job engine
 * does not answer, with every job kind's backlog (docs/jobs.md).
 */
export const healthRoutes: FastifyPluginAsync<
  TRouteContext & { databaseKind: TDatabaseKind }
> = async (app, { db, databaseKind, limits, jobs, capabilities }) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'Check that the server and its database answer',
        response: jsonAnswers({ 200: ZHealthResponse, 503: ZHealthUnavailableResponse }),
      },
    },
    async (request, reply) => {
      try {
        await pingDatabase(db);
        return { status: 'ok' as const, database: databaseKind };
      } catch (err) {
        request.log.error({ err }, 'database health check failed');
        return reply.code(503).send({ status: 'unavailable' as const, database: databaseKind });
      }
    },
  );
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health/ready',
    {
      schema: {
        operationId: 'getReadiness',
        summary: 'Check that the server is ready: database, Redis and job engine',
        description:
          'Also lists each capability (card payments, a BVN registry, SMS, …) and the adapter ' +
          'that serves it, or off and why: an off capability does not make the server unready.',
        response: jsonAnswers({ 200: ZReadyResponse, 503: ZNotReadyResponse }),
      },
    },
    async (request, reply) => {
      const report = await readiness({
        db,
        databaseKind,
        pingRedis: limits.pingStore,
        jobs,
        capabilities,
      });
      if (report.status === 'ready') return report;
      request.log.warn({ reasons: report.reasons }, 'not ready');
      return reply.code(503).send(report);
    },
  );
};
