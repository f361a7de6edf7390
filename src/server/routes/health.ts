import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZHealthResponse,
  ZHealthUnavailableResponse,
  type TDatabaseKind,
} from '../../domain/schemas/health';
import type { TRouteContext } from '../context';
import { pingDatabase } from '../services/health';
import { jsonAnswers } from './responses';

/** GET /api/health: 200 once the server and its database answer. */
export const healthRoutes: FastifyPluginAsync<
  TRouteContext & { databaseKind: TDatabaseKind }
> = async (app, { db, databaseKind }) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      schema: {
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
};
