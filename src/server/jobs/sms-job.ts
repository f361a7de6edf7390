import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { TClock } from '../clock';
import type { TDb } from '../db/database';
import { smsQueue } from '../db/schema';
import { SmsNotSent, type TSmsProviders } from '../providers/sms';
import type { TProviderHealth } from '../providers/routing/provider-health';
import { phoneTargetKeys } from '../services/identity/code-sends';
import { queuedSmsLabel, smsSeal, type TSmsSeal } from '../crypto/sms-seal';
import { JobRefused, jobIdFor, type TJobKind, type TJobQueue, type TJobs } from './engine';

/*
 * Every SMS the server sends is this job (docs/jobs.md "The outbox"): queued in the transaction of
 * the change that calls for it (a code, a grant's receipt, a new device, a passkey's removal, a
 * revocation, a changed number, a notice before a debit and a receipt after it, a staff invitation), sent by the engine,
 * retried with backoff, dead-lettered when it never goes. Each run tries the providers of
 * SMS_PROVIDERS in the order health routing gives (providers/routing/provider-health.ts), each
 * once, with the same text, and records each try's outcome: one that refused the message or gave
 * no answer hands it to the next (sendByRoute). A message every provider refused (SmsNotSent, not
 * retryable: an unknown sender, no balance), or one whose number was refused, would be refused
 * again: its text is erased and the job goes to the dead letters at once (JobRefused), logged and
 * shown in the backlog, so an operator sees a wrong key or sender. The row names the provider
 * that took a message. The job's id is fixed by the change, so one change sends one SMS however
 * often it is queued. Nothing else hands a message to the SMS port (sms-outbox.test.ts).
 *
 * A message carries codes and links that sign someone in, so the job's data holds none of it: it
 * names the message's row in `sms_queue`, whose text is sealed (crypto/sms-seal.ts)
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

/** What the SMS job works with: the providers, their health routing, the database, the clock. */
export type TSmsJobContext = {
  db: TDb;
  sms: TSmsProviders;
  health: TProviderHealth;
  clock: TClock;
};

export function smsJob(ctx: TSmsJobContext): TJobKind<TSmsJob> {
  return {
    name: SMS_JOB,
    // Soon at first (a code lives 5 minutes; a dead worker's SMS goes within 30 s), then backing off.
    retry: { limit: 12, delaySeconds: 5, maxDelaySeconds: 3_600 },
    // A fetch of five messages, each tried at every provider of the list (10 s a try at most).
    expireSeconds: 60 * Math.max(1, ctx.sms.list.length),
    run: ({ smsId }) => sendQueued(ctx, smsId),
  };
}

/**
 * Sends the queued message `smsId` and erases its text, naming the provider that took it. One
 * sent before (a retry after the send whose erasure was lost is sent again, as any provider
 * answer lost would be) or erased already sends nothing; one whose time is up is erased unsent:
 * sending it now would only mislead. One refused for good is erased unsent too, and its job
 * refused with the provider's reason.
 */
async function sendQueued(ctx: TSmsJobContext, smsId: string): Promise<{ sent: boolean }> {
  const { db, clock } = ctx;
  const [queued] = await db.select().from(smsQueue).where(eq(smsQueue.id, smsId));
  if (!queued?.sealedBody) return { sent: false };
  const now = clock.now();
  const late = queued.notAfter !== null && now.getTime() >= queued.notAfter.getTime();
  let ended: TRouteEnd | null = null;
  if (!late) {
    const seal = await smsSeal(db);
    const body = seal.open(queued.sealedBody, queuedSmsLabel(smsId));
    ended = await sendByRoute(ctx, queued.phoneNumber, body);
  }
  const refused = ended !== null && 'refused' in ended ? ended.refused : null;
  const sentBy = ended !== null && 'sentBy' in ended ? ended.sentBy : null;
  await db
    .update(smsQueue)
    .set({
      sealedBody: null,
      sentAt: sentBy === null ? null : now,
      refusal: refused?.fault ?? null,
      provider: sentBy,
    })
    .where(eq(smsQueue.id, smsId));
  // Erased first: the dead letter names the row, never its text.
  if (refused !== null) throw new JobRefused(refused.message);
  return { sent: sentBy !== null };
}

/** Why a message is refused when no provider serves SMS (SMS is off). */
const NO_SMS_PROVIDER = 'No SMS provider is configured: SMS is off';

/** How a message's route ended: a provider took it, or it is refused for good. */
type TRouteEnd = { sentBy: string } | { refused: SmsNotSent };

/**
 * Hands one message to the providers of the SMS list, in the order health routing gives for it,
 * each once, until one takes it, recording each try's outcome for its provider. The same text
 * goes to each (the code was made once, when asked): a payer never gets two different codes
 * for one ask. A refusal of the number is the payer's: it ends the route (no provider reaches a
 * number that does not exist) and counts against no provider. A provider's own refusal (a key,
 * a sender ID, a balance) or no answer moves to the next. When none took it: refused for good
 * when each refused, else thrown, so the job asks again later (the message may have gone).
 */
async function sendByRoute(
  { sms: providers, health }: Pick<TSmsJobContext, 'sms' | 'health'>,
  phoneNumber: string,
  body: string,
): Promise<TRouteEnd> {
  const route = await health.route({ capability: 'sms' }, providers.list);
  // Every provider eliminated: a message is still worth a try at each rather than none.
  const order = route.order.length > 0 ? route.order : providers.list;
  let refused: SmsNotSent | null = null;
  let unanswered: { error: unknown } | null = null;
  for (const provider of order) {
    const sms = providers.senderOf(provider);
    const started = performance.now();
    const tried = await triedSend(() => sms.send(phoneNumber, body));
    const byNumber = tried.outcome === 'refused' && tried.error.fault === 'number';
    await health.record({
      capability: 'sms',
      provider,
      health: tried.outcome === 'sent' || byNumber ? 'answered' : 'failed',
      latencyMs: performance.now() - started,
    });
    if (tried.outcome === 'sent') return { sentBy: provider };
    if (tried.outcome === 'no-answer') unanswered ??= tried;
    else if (byNumber) return { refused: tried.error };
    else refused ??= tried.error;
  }
  if (unanswered !== null) throw unanswered.error;
  return { refused: refused ?? new SmsNotSent(NO_SMS_PROVIDER, false) };
}

/** One provider's try: taken, refused for good (SmsNotSent, not retryable), or no answer. */
type TSmsTry =
  | { outcome: 'sent' }
  | { outcome: 'refused'; error: SmsNotSent }
  | { outcome: 'no-answer'; error: unknown };

async function triedSend(send: () => Promise<void>): Promise<TSmsTry> {
  try {
    await send();
    return { outcome: 'sent' };
  } catch (error) {
    return error instanceof SmsNotSent && !error.retryable
      ? { outcome: 'refused', error }
      : { outcome: 'no-answer', error };
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
 * collection was called off, a collection's receipt when it ends (one per collection); a team's notice to its other owners of a
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
