import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { loadConfig } from '../config';
import { createAppContext } from '../context';
import type { TDb } from '../db/database';
import * as schema from '../db/schema';
import { SANDBOX_NOTICE_RETRY_MS } from '../sandbox/sandbox-notices';
import { JOBS_SCHEMA, jobEngine } from './engine';
import { jobKinds } from './kinds';

/**
 * Makes pg-boss's schema and the queue of every kind (the sandbox's included, as the default
 * configuration registers them) on a migrated PGlite that is to become the template
 * (scripts/build-server.ts). A database opened from the template then finds them made: its
 * engine's start reads them and creates or updates none (engine.ts), where it made some hundred
 * statements before. pg-boss still checks its schema at every start, and migrates it when a
 * newer pg-boss asks; a kind added or changed since the template was made is created or updated
 * at start as on any database.
 *
 * The kinds' handlers close over a context built here but never run: only their queues are made,
 * no job, worker or schedule, and pg-boss's record of this engine is removed.
 */
export async function makeTemplateJobQueues(client: PGlite): Promise<void> {
  const database = {
    db: drizzle(client, { schema }) as unknown as TDb,
    kind: 'pglite' as const,
    engine: { pglite: client },
    async listen(channel: string, handler: (payload: string) => void) {
      const stop = await client.listen(channel, handler);
      return () => stop();
    },
  };
  const engine = jobEngine({
    database,
    kinds: () => jobKinds(context, { resendOwed: async () => 0, everyMs: SANDBOX_NOTICE_RETRY_MS }),
    works: () => false,
    onError: (error) => {
      throw error;
    },
  });
  const context = createAppContext({
    database,
    config: loadConfig({}),
    jobs: engine,
    onEventError: (error) => {
      throw error;
    },
  });
  await engine.start();
  await engine.stop();
  await context.events.close();
  // pg-boss's record of the engine that made them (this build's host and process) is no
  // database's history.
  await client.exec(`delete from ${JOBS_SCHEMA}.instance`);
}
