// The SMS jobs of a test app (docs/jobs.md "The outbox"): what is queued for a number, and the
// retry of what the provider refused made due now, so a test sees the second try without waiting
// out the backoff.
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { TDb } from '../db/database';
import { JOBS_SCHEMA } from '../jobs/engine';
import { SMS_JOB } from '../jobs/sms-job';

const rowsOf = <T>(result: unknown): T[] =>
  (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];

/** The SMS jobs queued for `phoneNumber`, oldest first: their id, state and message. */
export async function smsJobsTo(
  db: TDb,
  phoneNumber: string,
): Promise<{ id: string; state: string; body: string }[]> {
  return rowsOf(
    await db.execute(
      sql`select id::text as id, state::text as state, data->>'body' as body
          from ${sql.raw(JOBS_SCHEMA)}.job
          where name = ${SMS_JOB} and data->>'phoneNumber' = ${phoneNumber}
          order by created_on`,
    ),
  );
}

/**
 * Makes every SMS job waiting for its retry due now and runs the due ones here (a worker of the
 * app may take one first: wait for its message, not for this answer).
 */
export async function retrySmsNow(app: FastifyInstance, db: TDb): Promise<void> {
  await db.execute(
    sql`update ${sql.raw(JOBS_SCHEMA)}.job set start_after = now()
        where name = ${SMS_JOB} and state = 'retry'`,
  );
  await app.jobs.drain([SMS_JOB]);
}
