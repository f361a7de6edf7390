import { createHmac } from 'node:crypto';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import {
  BVN_CODE_LENGTH,
  BVN_CODE_MAX_WRONG_TRIES,
  BVN_CODE_TTL_MS,
  BVN_CODES_PER_PAYER_PER_HOUR,
  toBvn,
} from '../../../domain/bvn';
import { formatErrorMessage } from '../../../domain/errors';
import type { TVerifiedBvn } from '../../../domain/schemas/identity';
import type { TAppContext } from '../../context';
import { sealText, unsealText } from '../../crypto/sealing';
import type { TDb } from '../../db/database';
import { bvnCodes, payers } from '../../db/schema';
import type { TJobKind } from '../../jobs/engine';
import { openSmsOutbox } from '../../jobs/sms-job';
import { AppError } from '../app-error';
import { adoptLinksUnderBvn } from '../linking/bvn-ownership';
import { isUniqueViolation } from '../../db/database-errors';
import {
  codeTargetKey,
  HOUR_MS,
  NO_CODE_SENT,
  randomCode,
  refuseBeyondHourlyLimit,
} from './code-sends';
import { bvnHashOf, bvnKeys, SEAL_LABEL } from './bvn-keys';

/*
 * The payer's BVN (docs/identity.md "The BVN"): the anchor of ownership. A payer proves a BVN is
 * theirs once, by a code sent to the phone the BVN is registered with (the provider's BVN
 * registry names it; it need not be the payer's sign-in number), as Nigerian open-banking apps
 * do. One BVN belongs to one payer (a unique index on its keyed hash).
 *
 * A BVN is never kept in clear nor logged: a keyed hash (HMAC-SHA256) finds it and compares it
 * with an account's holder BVN, its last 4 digits are shown, and the BVN itself is sealed
 * (AES-256-GCM) for the data-sharing grant that hands it to a merchant. Both keys are derived
 * from a server secret, which SECRETS_KEY seals in the database.
 */

type TBvnContext = Pick<TAppContext, 'db' | 'config' | 'clock' | 'providers' | 'jobs'>;

function codeHash(key: Buffer, payerId: string, code: string): string {
  return createHmac('sha256', key).update(`${payerId}:${code}`).digest('base64url');
}

/** The payer's verified BVN as the page may see it, or null. */
export async function verifiedBvn(db: TDb, payerId: string): Promise<TVerifiedBvn | null> {
  const [row] = await db
    .select({ last4: payers.bvnLast4, verifiedAt: payers.bvnVerifiedAt })
    .from(payers)
    .where(eq(payers.id, payerId));
  if (!row?.last4 || !row.verifiedAt) return null;
  return { last4: row.last4, verifiedAt: row.verifiedAt.toISOString() };
}

/** The payer's verified BVN in clear, for a grant that shares it with a merchant; null if none. */
export async function openVerifiedBvn(db: TDb, payerId: string): Promise<string | null> {
  const [row] = await db
    .select({ sealed: payers.bvnSealed })
    .from(payers)
    .where(eq(payers.id, payerId));
  if (!row?.sealed) return null;
  return unsealText(row.sealed, (await bvnKeys(db)).sealKey, SEAL_LABEL);
}

/** A BVN as a payer's row keeps it: its keyed hash, sealed, and its last 4 digits. */
export async function keptBvn(
  db: TDb,
  bvn: string,
): Promise<{ bvnHash: string; bvnSealed: string; bvnLast4: string }> {
  const keys = await bvnKeys(db);
  return {
    bvnHash: await bvnHashOf(db, bvn),
    bvnSealed: sealText(bvn, keys.sealKey, SEAL_LABEL),
    bvnLast4: bvn.slice(-4),
  };
}

/**
 * Asks for a code proving `input.bvn`, and answers the same whatever the BVN: whether the
 * registry knows it, whose it is and which phone it names are told to nobody here. The code's row
 * is stored with no code yet (NO_CODE_SENT), with a job that asks the registry and sends the code
 * (`sendBvnCode`), so the call does the same work and waits for nothing of the registry or the
 * SMS, whatever the BVN. A BVN another payer verified is told (BVN_TAKEN) at verification, to
 * whoever proved the code its phone received; one the registry does not know is told to nobody.
 *
 * Limits, each counting every ask: the BVN's, by its keyed hash across payers and addresses
 * (`countTarget`, the shared rate limits), and the payer's, in the code's transaction. `mayReplace`:
 * whether the session may replace a verified BVN by another (only a session a trusted passkey
 * proved may); that refusal tells the payer only about their own BVN.
 */
export async function requestBvnCode(
  ctx: TBvnContext,
  payerId: string,
  input: { bvn: string; mayReplace: boolean; countTarget: (targetKey: string) => Promise<void> },
): Promise<{ expiresAt: Date }> {
  const bvn = toBvn(input.bvn);
  if (!bvn) throw new AppError('BVN_INVALID');
  await input.countTarget(await codeTargetKey(ctx.db, `bvn:${bvn}`));
  const kept = await keptBvn(ctx.db, bvn);
  const [payer] = await ctx.db
    .select({ bvnHash: payers.bvnHash })
    .from(payers)
    .where(eq(payers.id, payerId));
  // The guard read is for the message only: the verification's UPDATE decides again.
  if (payer?.bvnHash && payer.bvnHash !== kept.bvnHash && !input.mayReplace) {
    throw new AppError('PASSKEY_PROOF_REQUIRED');
  }
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + BVN_CODE_TTL_MS);
  // The asked code and the job that sends it are one change (the outbox).
  await ctx.db.transaction(async (tx) => {
    await refuseBeyondHourlyLimit(
      tx,
      { table: bvnCodes, createdAt: bvnCodes.createdAt },
      {
        lockKey: `bvn-code:${payerId}`,
        sent: eq(bvnCodes.payerId, payerId),
        limit: BVN_CODES_PER_PAYER_PER_HOUR,
        now,
      },
    );
    await tx
      .update(bvnCodes)
      .set({ supersededAt: now })
      .where(
        and(
          eq(bvnCodes.payerId, payerId),
          isNull(bvnCodes.consumedAt),
          isNull(bvnCodes.supersededAt),
        ),
      );
    const [stored] = await tx
      .insert(bvnCodes)
      .values({ payerId, ...kept, codeHash: NO_CODE_SENT, createdAt: now, expiresAt })
      .returning({ id: bvnCodes.id });
    if (!stored) throw new Error('The code was not stored');
    await tx
      .delete(bvnCodes)
      .where(
        and(
          eq(bvnCodes.payerId, payerId),
          lt(bvnCodes.createdAt, new Date(now.getTime() - 24 * HOUR_MS)),
        ),
      );
    await ctx.jobs.enqueue(tx, BVN_CODE_JOB, { codeId: stored.id } satisfies TBvnCodeJob);
  });
  return { expiresAt };
}

/** The job that makes and sends an asked BVN code. */
export const BVN_CODE_JOB = 'sms.bvn-code';

/** Its data: the asked code's row, nothing of the BVN or the code. */
type TBvnCodeJob = { codeId: number };

/**
 * A code row that may still be tried: neither used nor replaced, unexpired, with tries left.
 * What a guess needs, and what making the code needs (one nobody can try is not sent).
 */
const triable = (now: Date) =>
  and(
    isNull(bvnCodes.consumedAt),
    isNull(bvnCodes.supersededAt),
    gt(bvnCodes.expiresAt, now),
    lt(bvnCodes.wrongTries, BVN_CODE_MAX_WRONG_TRIES),
  );

/**
 * The job's work: asks the registry for the phone of the asked code's BVN, then makes the code and
 * queues its SMS in one transaction, where the row is still triable and still without a code. A
 * BVN the registry does not know keeps NO_CODE_SENT: every guess at it is a wrong try. A registry
 * that fails throws, and the job is tried again while the code may still be tried.
 */
export async function sendBvnCode(ctx: TBvnContext, codeId: number): Promise<{ sent: boolean }> {
  const [row] = await ctx.db
    .select({
      payerId: bvnCodes.payerId,
      bvnSealed: bvnCodes.bvnSealed,
      expiresAt: bvnCodes.expiresAt,
    })
    .from(bvnCodes)
    .where(
      and(eq(bvnCodes.id, codeId), eq(bvnCodes.codeHash, NO_CODE_SENT), triable(ctx.clock.now())),
    );
  if (!row) return { sent: false };
  const keys = await bvnKeys(ctx.db);
  const record = await ctx.providers.payments.bvn.lookupBvn(
    unsealText(row.bvnSealed, keys.sealKey, SEAL_LABEL),
  );
  if (!record) return { sent: false };

  const code = randomCode(BVN_CODE_LENGTH);
  const minutes = BVN_CODE_TTL_MS / 60_000;
  const body = `${ctx.config.productName}: your BVN verification code is ${code}. It expires in ${minutes} minutes. Never share it with anyone.`;
  const outbox = await openSmsOutbox(ctx);
  const now = ctx.clock.now();
  // The registry answered meanwhile: the row may have been tried, replaced or expired.
  const queued = await ctx.db.transaction(async (tx) => {
    const [made] = await tx
      .update(bvnCodes)
      .set({ codeHash: codeHash(keys.codeKey, row.payerId, code) })
      .where(and(eq(bvnCodes.id, codeId), eq(bvnCodes.codeHash, NO_CODE_SENT), triable(now)))
      .returning({ id: bvnCodes.id });
    if (!made) return false;
    await outbox.queue(tx, `bvn-code:${codeId}`, {
      phoneNumber: record.phoneNumber,
      body,
      notAfter: row.expiresAt,
    });
    return true;
  });
  return { sent: queued };
}

/** The BVN code job kind (jobs/kinds.ts): retried briefly, as a code lives 5 minutes. */
export function bvnCodeJob(ctx: TBvnContext): TJobKind<TBvnCodeJob> {
  return {
    name: BVN_CODE_JOB,
    retry: { limit: 5, delaySeconds: 5, maxDelaySeconds: 60 },
    expireSeconds: 60,
    run: ({ codeId }) => sendBvnCode(ctx, codeId),
  };
}

/** The payer's live code: the newest one neither used nor replaced. */
const latestLiveCodeId = (payerId: string) => sql`(
  select ${bvnCodes.id} from ${bvnCodes}
  where ${bvnCodes.payerId} = ${payerId}
    and ${bvnCodes.consumedAt} is null and ${bvnCodes.supersededAt} is null
  order by ${bvnCodes.createdAt} desc, ${bvnCodes.id} desc
  limit 1)`;

/** Why a guess was not even tried: only the message depends on this read. */
async function whyNoTry(db: TDb, payerId: string, now: Date): Promise<AppError> {
  const [row] = await db
    .select({ expiresAt: bvnCodes.expiresAt })
    .from(bvnCodes)
    .where(sql`${bvnCodes.id} = ${latestLiveCodeId(payerId)}`);
  if (!row) return new AppError('PHONE_CODE_NOT_FOUND');
  if (row.expiresAt.getTime() <= now.getTime()) return new AppError('PHONE_CODE_EXPIRED');
  return new AppError('PHONE_CODE_LOCKED');
}

/**
 * Checks the code the BVN's phone received and records the BVN as the payer's. The guess and the
 * count of wrong tries are one UPDATE (concurrent guesses get 5 tries, no more); the code is used
 * up and the payer's BVN set in one transaction, where the unique index on the hash refuses a
 * BVN another payer verified (BVN_TAKEN: said only now, to whoever proved the code the BVN's
 * phone received), and a verified BVN is replaced only when `mayReplace`.
 */
export async function verifyBvnCode(
  ctx: TBvnContext,
  payerId: string,
  input: { code: string; mayReplace: boolean },
): Promise<TVerifiedBvn> {
  const code = input.code.trim();
  if (!new RegExp(`^\\d{${BVN_CODE_LENGTH}}$`).test(code)) {
    throw new AppError('PHONE_CODE_FORMAT_INVALID');
  }
  const now = ctx.clock.now();
  const keys = await bvnKeys(ctx.db);
  const matches = sql<boolean>`${bvnCodes.codeHash} = ${codeHash(keys.codeKey, payerId, code)}`;
  const live = triable(now);
  const [tried] = await ctx.db
    .update(bvnCodes)
    .set({ wrongTries: sql`${bvnCodes.wrongTries} + case when ${matches} then 0 else 1 end` })
    .where(and(sql`${bvnCodes.id} = ${latestLiveCodeId(payerId)}`, live))
    .returning({ id: bvnCodes.id, wrongTries: bvnCodes.wrongTries, matched: matches });
  if (!tried) throw await whyNoTry(ctx.db, payerId, now);
  if (!tried.matched) {
    const left = BVN_CODE_MAX_WRONG_TRIES - tried.wrongTries;
    if (left <= 0) throw new AppError('PHONE_CODE_LOCKED');
    throw new AppError(
      'PHONE_CODE_INCORRECT',
      formatErrorMessage('PHONE_CODE_INCORRECT', {
        tries: `${left} ${left === 1 ? 'try' : 'tries'}`,
      }),
    );
  }
  let verified: TVerifiedBvn;
  try {
    verified = await ctx.db.transaction(async (tx) => {
      const [used] = await tx
        .update(bvnCodes)
        .set({ consumedAt: now })
        .where(and(eq(bvnCodes.id, tried.id), live))
        .returning();
      if (!used) throw await whyNoTry(tx, payerId, now);
      const [set] = await tx
        .update(payers)
        .set({
          bvnHash: used.bvnHash,
          bvnSealed: used.bvnSealed,
          bvnLast4: used.bvnLast4,
          bvnVerifiedAt: now,
        })
        .where(
          and(
            eq(payers.id, payerId),
            input.mayReplace
              ? undefined
              : or(isNull(payers.bvnHash), eq(payers.bvnHash, used.bvnHash)),
          ),
        )
        .returning({ last4: payers.bvnLast4 });
      if (!set) throw new AppError('PASSKEY_PROOF_REQUIRED');
      return { last4: used.bvnLast4, verifiedAt: now.toISOString() };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('BVN_TAKEN');
    throw error;
  }
  // Links made before BVNs were checked, on accounts held under this BVN, may debit again.
  await adoptLinksUnderBvn(ctx.db, payerId, async (account) => {
    const found = await ctx.providers.payments.banks.nameEnquiry(account);
    return found?.bvn ?? null;
  });
  return verified;
}
