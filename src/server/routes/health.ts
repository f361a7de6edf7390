import { sql } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import type { TDatabase } from '../db/database';

/** GET /api/health: 200 once the server and its database answer. */
export const healthRoutes: FastifyPluginAsync<{ database: TDatabase }> = async (
  app,
  { database },
) => {
  app.get('/api/health', async (request, reply) => {
    try {
      await database.db.execute(sql`select 1`);
      return { status: 'ok', database: database.kind };
    } catch (err) {
      request.log.error({ err }, 'database health check failed');
      return reply.code(503).send({ status: 'unavailable', database: database.kind });
    }
  });
};
