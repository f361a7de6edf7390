import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { TClock } from '../clock';
import type { TDb } from '../db/database';
import { smsQueue } from '../db/schema';
import { SmsNotSent, type TSmsSender } from '../providers/sms';
import { phoneTargetKeys } from '../services/identity/code-sends';
import { queuedSmsLabel, smsSeal, type TSmsSeal } from '../services/identity/sms-seal';
import { JobRefused, jobIdFor, type TJobKind, type TJobQueue, type TJobs } from './engine';

/*
 * Every SMS the server sends is this job (docs/jobs.md "The outbox"): queued in the transaction of
 * the change that calls for it (a code, a grant's receipt, a new device, a passkey's removal, a
 * revocation, a changed number, a notice before a debit, a staff invitation), sent by the engine,
 * retried with backoff, dead-lettered when it never goes. A message the provider refused
 * (SmsNotSent, not retryable: a bad number, an unknown sender) would be refused again: its text
 * is erased and the job goes to the dead letters at once (JobRefused), logged and shown in the
 * backlog, so an operator sees a wrong key or sender. The job's id is fixed by
 * the change, so one change sends one SMS however often it is queued. Nothing else hands a message
 * to the SMS port (sms-outbox.test.ts).
 *
 * A message carries codes and links that sign someone in, so the job's data holds none of it: it
 * names the message's row in `sms_queue`, whose text is sealed (services/identity/sms-seal.ts)
 * and erased once sent. pg-boss keeps a job's data for days after; the sealed text is gone then.
 */

/** The job kind that sends one SMS. */
export const SMS_JOB = 'sms.send';

/** What a service queues. */
export type TSmsMessage = {
  phoneNumber: string;
  body: string;
  /** When the message is worth nothing any more (a code's expiry): it is then not sent. */
  notAfter?: Date;
};

/** An SMS job's data: the queued message's row (its id is the job's), nothing of its text. */
export type TSmsJob = { smsId: string };

/** What queues an SMS and sends it after the commit: the app's job engine (`ctx.jobs`). */
export type TSmsJobs = Pick<TJobs, 'enqueue' | 'nudge'>;

export function smsJob(ctx: { db: TDb; sms: TSmsSender; clock: TClock }): TJobKind<TSmsJob> {
  return {
    name: SMS_JOB,
    // Soon at first (a code lives 5 minutes; a dead worker's SMS goes within 30 s), then backing off.
    retry: { limit: 12, delaySeconds: 5, maxDelaySeconds: 3_600 },
    expireSeconds: 60,
    run: ({ smsId }) => sendQueued(ctx, smsId),
  };
}

/**
 * Sends the queued message `smsId` and erases its text. One sent before (a retry after the send
 * whose erasure was lost is sent again, as any provider answer lost would be) or erased already
 * sends nothing; one whose time is up is erased unsent: sending it now would only mislead. One the
 * provider refused is erased unsent too, and its job refused with the provider's reason.
 */
async function sendQueued(
  { db, sms, clock }: { db: TDb; sms: TSmsSender; clock: TClock },
  smsId: string,
): Promise<{ sent: boolean }> {
  const [queued] = await db.select().from(smsQueue).where(eq(smsQueue.id, smsId));
  if (!queued?.sealedBody) return { sent: false };
  const now = clock.now();
  const late = queued.notAfter !== null && now.getTime() >= queued.notAfter.getTime();
  let refused: SmsNotSent | null = null;
  if (!late) {
    const seal = await smsSeal(db);
    const body = seal.open(queued.sealedBody, queuedSmsLabel(smsId));
    refused = await refusalOf(() => sms.send(queued.phoneNumber, body));
  }
  const sent = !late && refused === null;
  await db
    .update(smsQueue)
    .set({ sealedBody: null, sentAt: sent ? now : null, refusal: refused?.fault ?? null })
    .where(eq(smsQueue.id, smsId));
  // Erased first: the dead letter names the row, never its text.
  if (refused !== null) throw new JobRefused(refused.message);
  return { sent };
}

/** Runs a send: null once sent, the refusal no retry can help; else it throws. */
async function refusalOf(send: () => Promise<void>): Promise<SmsNotSent | null> {
  try {
    await send();
    return null;
  } catch (error) {
    if (error instanceof SmsNotSent && !error.retryable) return error;
    throw error;
  }
}

/**
 * Counts one SMS to the number of keyed hash `numberKey` against the limits of whoever caused it
 * (rate-limits.ts smsSends: the number, the payer or staff member, the address, then the overall
 * ceiling; ownSmsSends, for their own number, all but the number), and throws the 429 past one.
 */
export type TSmsGate = (numberKey: string) => Promise<void>;

/**
 * The gate of an SMS whose count is bounded elsewhere: a notice a debit is due (one per debit
 * its mandate allows); a grant's receipt, a revocation's notice, a merchant's cancellation of
 * future payments (one per consent, each made by a merchant); a debit given back after its
 * collection was called off (one per collection); a team's notice to its other owners of a
 * member's waiting passkey (one per member and owner per notice window; the member's own notice
 * is counted); a code whose ask was counted when asked (a sandbox BVN code; a dashboard recovery
 * code, by its number only: most asks send nothing, so they spend none of the overall ceiling).
 * Counts nothing.
 */
export const SMS_ASKED_BY_NO_CALL: TSmsGate = () => Promise.resolve();

/** What queueSms needs beside the message: the seal of its text, the job engine, the limits. */
type TSmsQueueing = {
  jobs: TJobQueue;
  seal: TSmsSeal;
  gate: TSmsGate;
  /** The keyed hash a number is counted under (services/identity/code-sends.ts). */
  numberKey: (phoneNumber: string) => string;
};

/**
 * Queues one SMS on `tx`, the transaction of the change that calls for it, its text sealed (with
 * a seal got from the database before the transaction). `change` names that change
 * (`consent-receipt:<consentId>`): the same change queued again is the same row and job, one SMS,
 * counted once. Every other one is counted by `gate` and refused past its limits, the change
 * with it: every SMS the server sends passes here. Answers the job's id, for sendQueuedSms
 * after the commit.
 */
export async function queueSms(
  queueing: TSmsQueueing,
  tx: TDb,
  change: string,
  message: TSmsMessage,
): Promise<string> {
  const id = jobIdFor(change);
  const [queued] = await tx
    .insert(smsQueue)
    .values({
      id,
      phoneNumber: message.phoneNumber,
      sealedBody: queueing.seal.seal(message.body, queuedSmsLabel(id)),
      notAfter: message.notAfter ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: smsQueue.id });
  if (!queued) return id;
  await queueing.gate(queueing.numberKey(message.phoneNumber));
  await queueing.jobs.enqueue(tx, SMS_JOB, { smsId: id } satisfies TSmsJob, { id });
  return id;
}

/**
 * How long notices of one kind to one person are one SMS: a second passkey added within it is
 * kept and logged, but its notice is the first one's, already on its way (docs/security.md
 * "Rate limits"). Each window is its own, by the clock: two notices either side of a boundary are
 * two SMS.
 */
export const NOTICE_WINDOW_MS = 10 * 60_000;

/**
 * The change a notice of `kind` to `to` is queued as (queueSms): the same for every notice of
 * that kind to that person within one NOTICE_WINDOW_MS, so the first one queued is the only SMS.
 */
export const coalescedNotice = (kind: string, to: string, at: Date): string =>
  `${kind}:${to}:${Math.floor(at.getTime() / NOTICE_WINDOW_MS)}`;

/** What queues SMS in the transaction of a change: the seal of their texts and the job engine. */
export type TSmsOutbox = {
  /**
   * queueSms on `tx`: answers the job's id, for sendQueuedSms after the commit. `gate` replaces
   * the outbox's for this one SMS (a notice the call causes but no call asks for).
   */
  queue(tx: TDb, change: string, message: TSmsMessage, gate?: TSmsGate): Promise<string>;
};

/**
 * The outbox of SMS, its seal and the key of its counts got from the database before the
 * change's transaction; `smsGate` counts each SMS for whoever caused it.
 */
export async function openSmsOutbox(ctx: {
  db: TDb;
  jobs: TJobQueue;
  smsGate: TSmsGate;
}): Promise<TSmsOutbox> {
  const queueing: TSmsQueueing = {
    jobs: ctx.jobs,
    seal: await smsSeal(ctx.db),
    gate: ctx.smsGate,
    numberKey: await phoneTargetKeys(ctx.db),
  };
  return {
    queue: (tx, change, message, gate = queueing.gate) =>
      queueSms({ ...queueing, gate }, tx, change, message),
  };
}

/**
 * After the commit that queued them: this process sends the SMS `ids` now when it works on SMS
 * jobs, and resolves once they were tried (the payer has their code when the call answers). It
 * never throws: the queued job is the guarantee, retried by the engine.
 */
export async function sendQueuedSms(
  jobs: Pick<TJobs, 'nudge'>,
  ids: (string | null)[],
): Promise<void> {
  const queued = ids.filter((id): id is string => id !== null);
  if (queued.length > 0) await jobs.nudge(SMS_JOB, queued);
}

/**
 * What became of the queued SMS `id` so far: sent; never to be sent (the provider refused it, or
 * its time ran out: its text is erased unsent), 'unreachable' where the provider said it will
 * never reach the number; or still queued (not tried yet, or tried and to be tried again).
 */
export async function smsDelivery(
  db: TDb,
  id: string,
): Promise<'sent' | 'not_sent' | 'unreachable' | 'queued'> {
  const [row] = await db
    .select({ sentAt: smsQueue.sentAt, sealedBody: smsQueue.sealedBody, refusal: smsQueue.refusal })
    .from(smsQueue)
    .where(eq(smsQueue.id, id));
  if (row?.sentAt) return 'sent';
  if (row?.sealedBody) return 'queued';
  return row?.refusal === 'number' ? 'unreachable' : 'not_sent';
}

/**
 * Erases, in `tx`, the text of the queued SMS of `changes` not sent yet: a code replaced by a newer
 * one is not delivered after it (a retry late behind the new code would only confuse the payer).
 */
export async function withdrawQueuedSms(tx: TDb, changes: readonly string[]): Promise<void> {
  if (changes.length === 0) return;
  await tx
    .update(smsQueue)
    .set({ sealedBody: null })
    .where(and(inArray(smsQueue.id, changes.map(jobIdFor)), isNull(smsQueue.sentAt)));
}
