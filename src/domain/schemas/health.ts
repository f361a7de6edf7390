import { z } from 'zod/mini';

/** Which database answers: embedded PGlite or a PostgreSQL server. */
export const ZDatabaseKind = z.enum(['pglite', 'postgres']);
export type TDatabaseKind = z.infer<typeof ZDatabaseKind>;

/** GET /api/health, 200: the server and its database answer. */
export const ZHealthResponse = z.object({ status: z.literal('ok'), database: ZDatabaseKind });
export type THealthResponse = z.infer<typeof ZHealthResponse>;

/** GET /api/health, 503: the server runs but its database does not answer. */
export const ZHealthUnavailableResponse = z.object({
  status: z.literal('unavailable'),
  database: ZDatabaseKind,
});
