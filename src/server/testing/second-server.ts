import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import type { TClock } from '../clock';
import type { TConfig } from '../config';
import { openDatabase, type TDatabase } from '../db/database';

/**
 * A second server on the test's database, as another process would run it: on PostgreSQL with
 * connections of its own, on PGlite the same database. Its webhooks are left to the test.
 */
export async function secondServer(
  first: { database: TDatabase & { url?: string }; config: TConfig },
  clock: TClock,
): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const { url } = first.database;
  const database = url ? await openDatabase({ kind: 'postgres', url }) : first.database;
  const app = await buildApp({
    config: first.config,
    database,
    logger: false,
    clock,
    webhookDelivery: 'manual',
  });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      if (database !== first.database) await database.close();
    },
  };
}
