import { sql } from 'drizzle-orm';
import type {
  TJobKindBacklog,
  TNotReadyResponse,
  TReadyResponse,
} from '../../domain/schemas/health';
import type { TDatabaseKind } from '../../domain/schemas/health';
import type { TDb } from '../db/database';
import type { TJobs } from '../jobs/engine';

/** Asks the database the smallest question; throws when it does not answer. */
export async function pingDatabase(db: TDb): Promise<void> {
  await db.execute(sql`select 1`);
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Whether this process may take traffic (GET /api/health/ready): its database, Redis when the
 * rate limits are shared there, and the job engine each answer. Reports every job kind's backlog
 * and the kinds that are failing, which do not make the process unready: the others still run.
 */
export async function readiness(input: {
  db: TDb;
  databaseKind: TDatabaseKind;
  pingRedis: (() => Promise<void>) | null;
  jobs: Pick<TJobs, 'readiness' | 'backlog'> | undefined;
  capabilities: TReadyResponse['capabilities'];
}): Promise<TReadyResponse | TNotReadyResponse> {
  const reasons: string[] = [];
  try {
    await pingDatabase(input.db);
  } catch (error) {
    reasons.push(`the database does not answer: ${messageOf(error)}`);
  }
  let redis: TReadyResponse['redis'] = 'not_configured';
  if (input.pingRedis) {
    try {
      await input.pingRedis();
      redis = 'ready';
    } catch (error) {
      redis = 'not_ready';
      reasons.push(`Redis does not answer: ${messageOf(error)}`);
    }
  }
  let jobEngine: TReadyResponse['jobEngine'] = 'not_ready';
  let jobs: TJobKindBacklog[] = [];
  if (!input.jobs) {
    reasons.push('no job engine runs');
  } else {
    const engine = await input.jobs.readiness();
    if (engine.ready) {
      jobEngine = 'ready';
      try {
        jobs = (await input.jobs.backlog()).map(({ kind, states, oldestWaitingSeconds }) => ({
          kind,
          waiting: states.created,
          retrying: states.retry,
          active: states.active,
          failed: states.failed,
          dead: states.dead,
          oldestWaitingSeconds,
        }));
      } catch (error) {
        jobEngine = 'not_ready';
        reasons.push(`the job engine's backlog cannot be read: ${messageOf(error)}`);
      }
    } else {
      reasons.push(engine.reason);
    }
  }
  const failingKinds = jobs
    .filter((kind) => kind.failed + kind.dead + kind.retrying > 0)
    .map((kind) => kind.kind);
  const { capabilities } = input;
  const report = {
    database: input.databaseKind,
    redis,
    jobEngine,
    failingKinds,
    jobs,
    capabilities,
  };
  return reasons.length === 0
    ? { status: 'ready', ...report }
    : { status: 'not_ready', reasons, ...report };
}
