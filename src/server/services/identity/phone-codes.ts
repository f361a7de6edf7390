import { createHmac } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { formatErrorMessage } from '../../../domain/errors';
import { signInCodeMessage } from '../../../domain/phone-code-texts';
import {
  isPhoneCodeFormat,
  PHONE_CODE_LENGTH,
  PHONE_CODE_MAX_WRONG_TRIES,
  PHONE_CODE_TTL_MS,
  PHONE_CODES_PER_PHONE_PER_HOUR,
  toNigerianE164,
} from '../../../domain/schemas/auth';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/database';
import { phoneCodes } from '../../db/schema';
import {
  openSmsOutbox,
  sendQueuedSms,
  smsDelivery,
  type TSmsGate,
  type TSmsJobs,
  withdrawQueuedSms,
} from '../../jobs/sms-job';
import { AppError } from '../../app-error';
import { HOUR_MS, NO_CODE_SENT, randomCode, refuseBeyondHourlyLimit } from './code-sends';
import { identityKeys } from './identity-keys';

/** A Nigerian mobile number in E.164, or PHONE_NUMBER_INVALID. */
export function normalisePhone(input: string): string {
  const phone = toNigerianE164(input);
  if (!phone) throw new AppError('PHONE_NUMBER_INVALID');
  return phone;
}

function hashCode(key: Buffer, phoneNumber: string, code: string): string {
  return createHmac('sha256', key).update(`${phoneNumber}:${code}`).digest('base64url');
}

function plural(n: number, one: string, many: string) {
  return `${n} ${n === 1 ? one : many}`;
}

/** What sends a code: its SMS is counted by `smsGate` for whoever asked (sms-job.ts queueSms). */
export type TCodeSending = { db: TDb; config: TConfig; jobs: TSmsJobs; smsGate: TSmsGate };

/** What a code's SMS says: the sign-in code's text unless a caller names what it is for. */
export type TCodeMessage = (input: { code: string; minutes: number; host: string }) => string;

/**
 * Sends a fresh 6-digit code to a Nigerian number. At most 10 codes per number per hour; a new
 * code replaces the number's earlier ones, so only the latest can be tried (5 tries at most).
 * The code and its SMS are one change: the SMS is a job queued in the code's transaction (the
 * outbox), so it exists exactly when the code does and goes once, whatever happens after the
 * commit; one that cannot go before the code expires is not sent.
 */
export async function requestPhoneCode(
  { db, config, jobs, smsGate }: TCodeSending,
  phoneInput: string,
  now: Date = new Date(),
  message?: TCodeMessage,
): Promise<{ phoneNumber: string; expiresAt: Date }> {
  const phoneNumber = normalisePhone(phoneInput);
  const keys = await identityKeys(db, config);
  const outbox = await openSmsOutbox({ db, jobs, smsGate });
  const code = randomCode(PHONE_CODE_LENGTH);
  const expiresAt = new Date(now.getTime() + PHONE_CODE_TTL_MS);
  const sent = {
    code,
    minutes: PHONE_CODE_TTL_MS / 60_000,
    host: new URL(config.publicUrl).hostname,
  };
  const body = message
    ? message(sent)
    : signInCodeMessage({ productName: config.productName, ...sent });

  const { sms, codeId } = await db.transaction(async (tx) => {
    const stored = await storePhoneCode(tx, {
      phoneNumber,
      codeHash: hashCode(keys.phoneCodeKey, phoneNumber, code),
      now,
      expiresAt,
    });
    await withdrawQueuedSms(tx, stored.replaced.map(codeSmsChange));
    const queued = await outbox.queue(tx, codeSmsChange(stored.id), {
      phoneNumber,
      body,
      notAfter: expiresAt,
    });
    return { sms: queued, codeId: stored.id };
  });
  await sendQueuedSms(jobs, [sms]);
  // Tried here and refused for good (a number the provider will not reach, SMS off): the payer
  // is told now and may try again, rather than wait for a code that never comes. One still
  // queued (not tried here, or to be tried again) is the engine's to send; one a newer code
  // replaced meanwhile (its SMS withdrawn) is that code's call to answer for.
  const delivery = await smsDelivery(db, sms);
  if ((delivery === 'not_sent' || delivery === 'unreachable') && (await isLiveCode(db, codeId))) {
    // A number it will never reach is the payer's to change; any other refusal is ours.
    throw new AppError(delivery === 'unreachable' ? 'PHONE_NUMBER_UNREACHABLE' : 'CODE_NOT_SENT');
  }
  return { phoneNumber, expiresAt };
}

/** Whether the code `codeId` is still the one its number may try: not replaced, not used. */
async function isLiveCode(db: TDb, codeId: number): Promise<boolean> {
  const [live] = await db
    .select({ id: phoneCodes.id })
    .from(phoneCodes)
    .where(
      and(
        eq(phoneCodes.id, codeId),
        isNull(phoneCodes.supersededAt),
        isNull(phoneCodes.consumedAt),
      ),
    );
  return live !== undefined;
}

/** The change a code's SMS is queued under: one code, one SMS. */
const codeSmsChange = (codeId: number) => `phone-code:${codeId}`;

/**
 * Stores a number's newest code in `tx`: refused past 10 a number an hour (one advisory lock per
 * number, so racing sends cannot both pass the count), the number's earlier codes replaced, and
 * those older than a day dropped, as they count towards nothing any more. Answers the new code's
 * id and those it replaced.
 */
async function storePhoneCode(
  tx: TDb,
  input: { phoneNumber: string; codeHash: string; now: Date; expiresAt: Date },
): Promise<{ id: number; replaced: number[] }> {
  const { phoneNumber, now } = input;
  await refuseBeyondHourlyLimit(
    tx,
    { table: phoneCodes, createdAt: phoneCodes.createdAt },
    {
      lockKey: `phone-code:${phoneNumber}`,
      sent: eq(phoneCodes.phoneNumber, phoneNumber),
      limit: PHONE_CODES_PER_PHONE_PER_HOUR,
      now,
    },
  );
  const replaced = await tx
    .update(phoneCodes)
    .set({ supersededAt: now })
    .where(
      and(
        eq(phoneCodes.phoneNumber, phoneNumber),
        isNull(phoneCodes.consumedAt),
        isNull(phoneCodes.supersededAt),
      ),
    )
    .returning({ id: phoneCodes.id });
  const [stored] = await tx
    .insert(phoneCodes)
    .values({ phoneNumber, codeHash: input.codeHash, createdAt: now, expiresAt: input.expiresAt })
    .returning({ id: phoneCodes.id });
  if (!stored) throw new Error('The code was not stored');
  await tx
    .delete(phoneCodes)
    .where(
      and(
        eq(phoneCodes.phoneNumber, phoneNumber),
        lt(phoneCodes.createdAt, new Date(now.getTime() - 24 * HOUR_MS)),
      ),
    );
  return { id: stored.id, replaced: replaced.map((code) => code.id) };
}

/**
 * Stores a code for the number that no SMS carries (NO_CODE_SENT): where a number must read as
 * one that was sent a code, to whoever does not hold its phone (a dashboard recovery asked for a
 * number on no team). It counts, replaces and is tried as a sent code is; no guess matches it.
 */
export async function holdUnsentPhoneCode(db: TDb, phoneNumber: string, now: Date): Promise<void> {
  await db.transaction((tx) =>
    storePhoneCode(tx, {
      phoneNumber,
      codeHash: NO_CODE_SENT,
      now,
      expiresAt: new Date(now.getTime() + PHONE_CODE_TTL_MS),
    }),
  );
}

/** The number's live code: the newest one neither used nor replaced. */
const latestLiveCodeId = (phoneNumber: string) => sql`(
  select ${phoneCodes.id} from ${phoneCodes}
  where ${phoneCodes.phoneNumber} = ${phoneNumber}
    and ${phoneCodes.consumedAt} is null and ${phoneCodes.supersededAt} is null
  order by ${phoneCodes.createdAt} desc, ${phoneCodes.id} desc
  limit 1)`;

/**
 * Checks a code against the number's latest one without using it up. A wrong code counts as a
 * try; after 5 wrong tries even the right code is refused.
 *
 * The comparison and the count are one UPDATE: the row lock orders concurrent guesses, and each
 * one sees the tries counted before it, so a burst of guesses gets 5 tries and no more.
 */
export async function checkPhoneCode(
  db: TDb,
  config: TConfig,
  phoneNumber: string,
  code: string,
  now: Date = new Date(),
): Promise<{ id: number }> {
  const trimmed = code.trim();
  if (!isPhoneCodeFormat(trimmed)) throw new AppError('PHONE_CODE_FORMAT_INVALID');
  const keys = await identityKeys(db, config);
  const guess = hashCode(keys.phoneCodeKey, phoneNumber, trimmed);
  const matches = sql<boolean>`${phoneCodes.codeHash} = ${guess}`;

  const [tried] = await db
    .update(phoneCodes)
    .set({ wrongTries: sql`${phoneCodes.wrongTries} + case when ${matches} then 0 else 1 end` })
    .where(
      and(
        sql`${phoneCodes.id} = ${latestLiveCodeId(phoneNumber)}`,
        isNull(phoneCodes.consumedAt),
        isNull(phoneCodes.supersededAt),
        gt(phoneCodes.expiresAt, now),
        lt(phoneCodes.wrongTries, PHONE_CODE_MAX_WRONG_TRIES),
      ),
    )
    .returning({ id: phoneCodes.id, wrongTries: phoneCodes.wrongTries, matched: matches });
  if (!tried) throw await whyNoTry(db, phoneNumber, now);
  if (tried.matched) return { id: tried.id };

  const left = PHONE_CODE_MAX_WRONG_TRIES - tried.wrongTries;
  if (left <= 0) throw new AppError('PHONE_CODE_LOCKED');
  throw new AppError(
    'PHONE_CODE_INCORRECT',
    formatErrorMessage('PHONE_CODE_INCORRECT', { tries: plural(left, 'try', 'tries') }),
  );
}

/** Why a guess was not even tried: only the message depends on this read, never the answer. */
async function whyNoTry(db: TDb, phoneNumber: string, now: Date): Promise<AppError> {
  const [row] = await db
    .select({ expiresAt: phoneCodes.expiresAt, wrongTries: phoneCodes.wrongTries })
    .from(phoneCodes)
    .where(sql`${phoneCodes.id} = ${latestLiveCodeId(phoneNumber)}`);
  if (!row) return new AppError('PHONE_CODE_NOT_FOUND');
  if (row.expiresAt.getTime() <= now.getTime()) return new AppError('PHONE_CODE_EXPIRED');
  return new AppError('PHONE_CODE_LOCKED');
}

/**
 * Uses a checked code up; of two racing uses only one wins, and a code that reached its limit of
 * wrong tries since it was checked is refused.
 */
export async function consumePhoneCode(
  db: TDb,
  code: { id: number; phoneNumber: string },
  now: Date,
): Promise<void> {
  const { id: codeId, phoneNumber } = code;
  const [used] = await db
    .update(phoneCodes)
    .set({ consumedAt: now })
    .where(
      and(
        eq(phoneCodes.id, codeId),
        isNull(phoneCodes.consumedAt),
        isNull(phoneCodes.supersededAt),
        gt(phoneCodes.expiresAt, now),
        lt(phoneCodes.wrongTries, PHONE_CODE_MAX_WRONG_TRIES),
      ),
    )
    .returning({ id: phoneCodes.id });
  if (!used) throw await whyNoTry(db, phoneNumber, now);
}
