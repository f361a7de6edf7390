import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import {
  collectableAt,
  debitNoticeMessage,
  debitNoticeUrl,
  NOT_NOTIFIED,
  NOTICE_MARGIN_MS,
  nextNoticeWindow,
  noticeLeadMs,
  type TDebitNoticeState,
  type TSkipReason,
} from '../../../domain/debit-notices';
import { maskAccountNumber } from '../../../domain/account-row';
import { erasedPhoneNumber } from '../../../domain/payer-rights';
import type { TDebitNotice } from '../../../domain/schemas/debit-notices';
import type { TAppContext } from '../../context';
import type { TConfig } from '../../config';
import type { TDb } from '../../db/database';
import { claimRows } from '../../jobs/claim-rows';
import { openSmsOutbox, sendQueuedSms, SMS_ASKED_BY_NO_CALL } from '../../jobs/sms-job';
import {
  consentEvents,
  consents,
  futurePaymentCollections,
  merchants,
  payments,
  smsQueue,
} from '../../db/schema';
import { paymentSmsParties } from './payment-sms-parties';
import { AppError } from '../../app-error';
import { identityKeys, type TIdentityKeys } from '../identity/identity-keys';
import { receiptUrlOf } from '../consents/consent-receipts';
import { boundAccountsOf, recordEnding, type TCollectionRow } from './future-collections';

/*
 * The payer told before every debit (docs/payer-consents.md "Told before every debit"). The
 * runner (collection-runner.ts) makes each scheduled collection the notice's lead and a margin
 * before its due date, then, in one transaction per batch, claims the notices that are due (the
 * flag `notified_at` set in the claiming statement), moves a collection whose notice goes late to
 * the whole lead after it (collectableAt), and queues each SMS (the outbox), named on the
 * collection: a crash leaves neither a notice marked and never queued nor one sent twice. The
 * collection's claim (future-collections.ts claimDueCollections) debits nothing whose SMS was sent
 * less than the lead before, or not at all. A notice that cannot be sent (nobody to tell, or a
 * provider that refuses it for good) puts its collection back to wait for the next notice window
 * (nextNoticeWindow: its notice tried again a day later, its debit the whole lead after that),
 * and the merchant is told once that it waits ('future_payment.delayed', 'payer_not_notified'):
 * never debited untold, never failed for it, never left with no notice to come.
 *
 * A sweep, not a job queued with the grant: the notice belongs to the collection, which is made a
 * day ahead, and a retried round (insufficient funds) needs a notice again; one periodic claim
 * serves every case, and a paused consent's notices simply wait in it.
 *
 * The SMS's link opens the notice's page with no sign-in: `/debits/{token}`, the token being the
 * collection, its round and an HMAC of both under the identity key (as the receipt's is), so it
 * opens that one debit and cannot be made up, and a notice of an earlier round skips nothing.
 */

type TNoticeContext = Pick<TAppContext, 'db' | 'clock' | 'config' | 'jobs'>;

/** Characters of the HMAC kept in a token: 192 bits, a short SMS. */
const MAC_LENGTH = 32;

const noticeMac = (keys: TIdentityKeys, collectionId: string, round: number) =>
  createHmac('sha256', keys.phoneCodeKey)
    .update(`debit-notice:${collectionId}:${round}`)
    .digest('base64url')
    .slice(0, MAC_LENGTH);

/** The notice's token: `{collectionId}.{round}.{mac}`. */
const noticeToken = (keys: TIdentityKeys, collectionId: string, round: number) =>
  `${collectionId}.${round}.${noticeMac(keys, collectionId, round)}`;

/**
 * The collection and round a token names, its HMAC checked in constant time. A token made up,
 * cut, or of another round's MAC is DEBIT_NOTICE_NOT_FOUND (404), as an unknown collection is.
 */
export async function noticeOfToken(
  db: TDb,
  config: TConfig,
  token: string,
): Promise<{ collection: TCollectionRow; round: number }> {
  const parts = /^(.+)\.(\d{1,3})\.([\w-]+)$/.exec(token);
  if (!parts) throw new AppError('DEBIT_NOTICE_NOT_FOUND');
  const [, collectionId = '', roundText = '', macText = ''] = parts;
  const round = Number(roundText);
  const mac = Buffer.from(macText);
  const expected = Buffer.from(noticeMac(await identityKeys(db, config), collectionId, round));
  if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) {
    throw new AppError('DEBIT_NOTICE_NOT_FOUND');
  }
  const [collection] = await db
    .select()
    .from(futurePaymentCollections)
    .where(eq(futurePaymentCollections.id, collectionId));
  if (!collection) throw new AppError('DEBIT_NOTICE_NOT_FOUND');
  return { collection, round };
}

/**
 * Makes the collections of fixed future payments that fall due within `aheadMs` (the notice's lead
 * and a margin, so the payer's notice has a row to be flagged on): granted, bound to accounts, not
 * executed, and not scheduled before. Several runners at once make each one once (a unique index).
 */
export async function scheduleDueCollections(db: TDb, now: Date, aheadMs: number): Promise<void> {
  const horizon = new Date(now.getTime() + aheadMs).toISOString();
  await db.execute(sql`
    INSERT INTO future_payment_collections
      (id, payment_id, consent_id, "trigger", amount, status, due_at, created_at, updated_at)
    SELECT 'col_' || p.id, p.id, p.consent_id, 'schedule', p.amount, 'pending', p.due_date,
           ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
    FROM payments p JOIN consents c ON c.id = p.consent_id
    WHERE p.type = 'future' AND p.amount_type = 'fixed' AND p.status = 'pending'
      AND p.due_date IS NOT NULL AND p.due_date <= ${horizon}::timestamptz
      AND c.status = 'granted'
      AND EXISTS (SELECT 1 FROM future_payment_accounts f WHERE f.payment_id = p.id)
      AND NOT EXISTS (SELECT 1 FROM future_payment_collections s
                      WHERE s.payment_id = p.id AND s."trigger" = 'schedule')
    ON CONFLICT DO NOTHING`);
}

/**
 * Collections whose notice is due (scheduled ones, and those a merchant asked for): claimed for
 * one sender by setting the flag. A paused consent's wait: the payer hears of a debit only while
 * it may happen.
 */
export async function claimNotices(
  db: TDb,
  now: Date,
  aheadMs: number,
  limit = 50,
  only?: string,
): Promise<TCollectionRow[]> {
  const t = futurePaymentCollections;
  return claimRows(db, t, {
    due: and(
      only === undefined ? undefined : eq(t.id, only),
      eq(t.status, 'pending'),
      isNull(t.notifiedAt),
      lte(t.dueAt, new Date(now.getTime() + aheadMs)),
      sql`NOT EXISTS (SELECT 1 FROM consents c WHERE c.id = ${t.consentId}
        AND c.paused_at IS NOT NULL)`,
    ),
    still: isNull(t.notifiedAt),
    oldestBy: t.dueAt,
    limit,
    set: { notifiedAt: now },
  });
}

/**
 * The notice's SMS for a claimed collection, due at `collectAt`; null when nobody is to tell: no
 * bound account, no payer, or a payer whose number was erased (it reaches no one).
 */
async function noticeSms(
  tx: TDb,
  config: TConfig,
  keys: TIdentityKeys,
  row: TCollectionRow,
  collectAt: Date,
): Promise<{ phoneNumber: string; body: string } | null> {
  const [first] = await boundAccountsOf(tx, row.paymentId);
  if (!first) return null;
  const found = await paymentSmsParties(tx, row.paymentId, first.account.payerId);
  if (!found || found.phoneNumber === erasedPhoneNumber(first.account.payerId)) return null;
  return {
    phoneNumber: found.phoneNumber,
    body: debitNoticeMessage({
      productName: config.productName,
      merchantName: found.merchantName,
      amount: row.amount,
      narration: found.narration,
      collectAt,
      accountNumber: first.account.accountNumber,
      url: debitNoticeUrl(config.publicUrl, noticeToken(keys, row.id, row.rounds)),
    }),
  };
}

/**
 * Puts a collection whose notice could not be sent (nobody to tell, or the SMS provider refused it
 * for good) back to wait for the next notice window (nextNoticeWindow), in one conditional
 * statement on `tx`: its notice's flag and SMS cleared, so the sweep notices it again, and its due
 * time moved, so that notice goes the whole lead before the debit. `noticeSmsId` is the notice
 * it waits after (null: none was queued); undefined when it no longer waits on that notice. The
 * merchant is told once per collection (future_payment.delayed); GET /api/v1/payments/{id} shows
 * it pending, due at its new time.
 */
async function waitUnnoticed(
  ctx: TNoticeContext,
  tx: TDb,
  row: TCollectionRow,
  noticeSmsId: string | null,
  now: Date,
): Promise<TCollectionRow | undefined> {
  const t = futurePaymentCollections;
  const leadMs = noticeLeadMs(ctx.config.debitNoticeHours);
  const [waiting] = await tx
    .update(t)
    .set({
      dueAt: nextNoticeWindow(row.dueAt, now, leadMs),
      notifiedAt: null,
      noticeSmsId: null,
      updatedAt: now,
    })
    .where(
      and(
        eq(t.id, row.id),
        eq(t.status, 'pending'),
        isNotNull(t.notifiedAt),
        noticeSmsId === null ? isNull(t.noticeSmsId) : eq(t.noticeSmsId, noticeSmsId),
      ),
    )
    .returning();
  if (!waiting) return undefined;
  const [told] = await tx
    .select({ id: consentEvents.id })
    .from(consentEvents)
    .where(
      and(
        eq(consentEvents.consentId, row.consentId),
        eq(consentEvents.type, 'future_payment.delayed'),
        sql`${consentEvents.data}->>'collectionId' = ${row.id}`,
      ),
    )
    .limit(1);
  if (!told) {
    await recordEnding(
      ctx.jobs,
      tx,
      waiting,
      'future_payment.delayed',
      { reason: NOT_NOTIFIED, dueAt: waiting.dueAt.toISOString(), delayedAt: now.toISOString() },
      now,
    );
  }
  return waiting;
}

/**
 * Queues the notices that are due (`only` the one collection, when given): each is marked sent,
 * its collection moved to the whole lead after it where the due date came sooner, and its SMS
 * queued and named on it, in one transaction (the outbox); then the SMS are sent. A collection
 * with nobody to tell waits for the next window at once (waitUnnoticed), never left noticed with
 * no SMS. Each notice is its own SMS (keyed by the time it was claimed): one sent again after a
 * refusal is a new message, not the refused one.
 */
export async function sendDebitNotices(ctx: TNoticeContext, only?: string): Promise<number> {
  const outbox = await openSmsOutbox({ ...ctx, smsGate: SMS_ASKED_BY_NO_CALL });
  // Read before the transaction: the key is written on first use.
  const keys = await identityKeys(ctx.db, ctx.config);
  const leadMs = noticeLeadMs(ctx.config.debitNoticeHours);
  const now = ctx.clock.now();
  const queued = await ctx.db.transaction(async (tx) => {
    const smsIds: string[] = [];
    for (const row of await claimNotices(tx, now, leadMs + NOTICE_MARGIN_MS, 50, only)) {
      const collectAt = collectableAt(row.dueAt, now, leadMs);
      const sms = await noticeSms(tx, ctx.config, keys, row, collectAt);
      if (!sms) {
        await waitUnnoticed(ctx, tx, row, null, now);
        continue;
      }
      const change = `debit-notice:${row.id}:${row.rounds}:${now.getTime()}`;
      const smsId = await outbox.queue(tx, change, sms);
      await tx
        .update(futurePaymentCollections)
        .set({ dueAt: collectAt, noticeSmsId: smsId, updatedAt: now })
        .where(eq(futurePaymentCollections.id, row.id));
      smsIds.push(smsId);
    }
    return smsIds;
  });
  await sendQueuedSms(ctx.jobs, queued);
  await waitRefusedNotices(ctx);
  return queued.length;
}

/**
 * Puts back to wait for the next window the pending collections whose notice SMS will never be
 * sent: the provider refused it for good (a number it cannot reach), or its text was erased
 * unsent. One still queued or retried waits as it is, never debited until it goes.
 */
export async function waitRefusedNotices(ctx: TNoticeContext): Promise<number> {
  const t = futurePaymentCollections;
  const refused = await ctx.db
    .select({ collection: t, smsId: smsQueue.id })
    .from(t)
    .innerJoin(smsQueue, eq(smsQueue.id, t.noticeSmsId))
    .where(and(eq(t.status, 'pending'), isNull(smsQueue.sealedBody), isNull(smsQueue.sentAt)))
    .limit(50);
  let waiting = 0;
  for (const { collection, smsId } of refused) {
    const now = ctx.clock.now();
    const put = await ctx.db.transaction((tx) => waitUnnoticed(ctx, tx, collection, smsId, now));
    if (put) waiting += 1;
  }
  return waiting;
}

/** Where the noticed debit stands, as its page says it. */
function noticeState(
  collection: TCollectionRow,
  round: number,
  consentStatus: string,
): TDebitNoticeState {
  switch (collection.status) {
    case 'succeeded':
      return 'collected';
    case 'skipped':
      return 'skipped';
    case 'collecting':
      return 'under_way';
    case 'pending':
      // A notice of an earlier round: that debit ended short of funds; a new notice came since.
      return consentStatus === 'granted' && collection.rounds === round ? 'upcoming' : 'ended';
    case 'failed':
    case 'cancelled':
      return 'ended';
  }
}

/** The noticed debit as its page shows it, by its token. */
export async function noticeView(
  ctx: Pick<TAppContext, 'db' | 'config'>,
  collection: TCollectionRow,
  round: number,
): Promise<TDebitNotice> {
  const [found] = await ctx.db
    .select({
      narration: payments.narration,
      merchantName: merchants.name,
      consentStatus: consents.status,
    })
    .from(payments)
    .innerJoin(consents, eq(consents.id, payments.consentId))
    .innerJoin(merchants, eq(merchants.id, consents.merchantId))
    .where(eq(payments.id, collection.paymentId));
  if (!found) throw new AppError('DEBIT_NOTICE_NOT_FOUND');
  const [first] = await boundAccountsOf(ctx.db, collection.paymentId);
  const state = noticeState(collection, round, found.consentStatus);
  return {
    paymentId: collection.paymentId,
    merchantName: found.merchantName,
    amount: collection.amount,
    narration: found.narration,
    collectAt: collection.dueAt.toISOString(),
    account: first
      ? {
          bankName: first.account.bankName,
          accountNumber: maskAccountNumber(first.account.accountNumber),
        }
      : null,
    state,
    skipReason: state === 'skipped' ? (collection.failureReason as TSkipReason | null) : null,
    stopUrl:
      found.consentStatus === 'granted'
        ? await receiptUrlOf(ctx.db, ctx.config, collection.consentId)
        : null,
  };
}

/** GET /api/debit-notices/{token}: the one debit the notice's link names. */
export async function readDebitNotice(
  ctx: Pick<TAppContext, 'db' | 'config'>,
  token: string,
): Promise<TDebitNotice> {
  const { collection, round } = await noticeOfToken(ctx.db, ctx.config, token);
  return noticeView(ctx, collection, round);
}
