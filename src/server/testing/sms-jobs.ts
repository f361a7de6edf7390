// The SMS jobs of a test app (docs/jobs.md "The outbox"): what is queued for a number, and the
// retry of what the provider refused made due now, so a test sees the second try without waiting
// out the backoff.
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { TDb } from '../db/database';
import { JOBS_SCHEMA, jobIdFor } from '../jobs/engine';
import { SMS_ASKED_BY_NO_CALL, SMS_JOB, openSmsOutbox } from '../jobs/sms-job';
import { queuedSmsLabel, smsSeal } from '../crypto/sms-seal';

const rowsOf = <T>(result: unknown): T[] =>
  (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];

/**
 * The SMS jobs queued for `phoneNumber`, oldest first: their id, state and message, opened from
 * its seal while it waits (null once it was sent: its text is erased then). `db` is the database,
 * not a transaction.
 */
export async function smsJobsTo(
  db: TDb,
  phoneNumber: string,
): Promise<{ id: string; state: string; body: string | null }[]> {
  const seal = await smsSeal(db);
  const jobs = rowsOf<{ id: string; state: string; sealed: string | null }>(
    await db.execute(
      sql`select job.id::text as id, job.state::text as state, queued.sealed_body as sealed
          from ${sql.raw(JOBS_SCHEMA)}.job job
          join sms_queue queued on queued.id = (job.data->>'smsId')::uuid
          where job.name = ${SMS_JOB} and queued.phone_number = ${phoneNumber}
          order by job.created_on`,
    ),
  );
  return jobs.map(({ id, state, sealed }) => ({
    id,
    state,
    body: sealed === null ? null : seal.open(sealed, queuedSmsLabel(id)),
  }));
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

/** Queues one message as a change does, and runs the SMS jobs that are due. */
export async function queueSmsNow(
  app: FastifyInstance,
  db: TDb,
  message: { change: string; phoneNumber: string; body: string },
): Promise<void> {
  const outbox = await openSmsOutbox({ db, jobs: app.jobs, smsGate: SMS_ASKED_BY_NO_CALL });
  const { change, phoneNumber, body } = message;
  await db.transaction((tx) => outbox.queue(tx, change, { phoneNumber, body }));
  await app.jobs.drain([SMS_JOB]);
}

/** The state and output of the SMS job of `change`. */
export async function smsJobOf(
  db: TDb,
  change: string,
): Promise<{ state: string; output: unknown } | undefined> {
  const [job] = rowsOf<{ state: string; output: unknown }>(
    await db.execute(
      sql`select state::text as state, output from ${sql.raw(JOBS_SCHEMA)}.job
          where name = ${SMS_JOB} and id = ${jobIdFor(change)}::uuid`,
    ),
  );
  return job;
}
