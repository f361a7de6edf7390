import { createHmac } from 'node:crypto';
import { and, desc, eq, isNull, lt, ne } from 'drizzle-orm';
import {
  answerDueAt,
  EXPORT_LINK_TTL_MS,
  exportFileName,
  exportPageUrl,
  exportReadyMessage,
  nameCorrection,
  type TPayerRightsKind,
} from '../../../domain/payer-rights';
import { formatPaymentDate } from '../../../domain/payment-date';
import type {
  TErasureRequest,
  TPayerExportResponse,
  TPayerRightsListedRequest,
  TPayerRightsRequest,
  TPayerRightsResponse,
} from '../../../domain/schemas/payer-rights';
import type { TAppContext } from '../../context';
import { randomId } from '../../crypto/secret-hash';
import { sealingKey, sealText, unsealText } from '../../crypto/sealing';
import type { TDb } from '../../db/database';
import { payerRightsRequests, payers } from '../../db/schema';
import { openSmsOutbox, sendQueuedSms, SMS_ASKED_BY_NO_CALL } from '../../jobs/sms-job';
import { AppError } from '../../app-error';
import { sameSecret } from '../forms/form-files';
import { identityKeys } from '../identity/identity-keys';
import { storedSecret } from '../../crypto/server-secrets';
import {
  ERASURE_HOLDS,
  ERASURE_JOB,
  stopConsentsForErasure,
  tellMerchantsOfErasure,
} from './erasure';
import { checkErasureSignature, claimErasureNonce } from './erasure-signature';
import { payerExport } from './export-file';
import { requestView } from './request-view';

/*
 * A payer's requests about their data (docs/payer-rights.md), each tracked from receipt to
 * answer, due within the law's month:
 * - A copy: received with its job queued in one transaction (one open at a time: asking again
 *   answers the open one). The job gathers the file (export-file.ts), keeps it sealed, marks the
 *   request done with the link's expiry and queues the SMS with the link, in one transaction.
 *   The link is `/consents?my-data={requestId}.{HMAC}` under the identity key, as the receipt's:
 *   the printable page, with the file at `/my-data/{token}`; it opens that copy alone until it
 *   expires, and cannot be made up. An expired copy is erased.
 * - An erasure: erasure.ts.
 * - A correction of the name the payer gave: done at once, refused for a BVN-verified name.
 */

export const EXPORT_JOB = 'payer-rights.export';
export const EXPORT_EXPIRY_JOB = 'payer-rights.expire-exports';

const requestRowsOf = (db: TDb, payerId: string) =>
  db
    .select()
    .from(payerRightsRequests)
    .where(eq(payerRightsRequests.payerId, payerId))
    .orderBy(desc(payerRightsRequests.receivedAt), desc(payerRightsRequests.id));

async function requestsOf(db: TDb, payerId: string): Promise<TPayerRightsRequest[]> {
  return (await requestRowsOf(db, payerId)).map(requestView);
}

/** The payer's own list: each ready copy with the link the SMS sent, while it opens the copy. */
async function listedRequestsOf(
  ctx: Pick<TAppContext, 'db' | 'clock' | 'config'>,
  payerId: string,
): Promise<TPayerRightsListedRequest[]> {
  const now = ctx.clock.now().getTime();
  return Promise.all(
    (await requestRowsOf(ctx.db, payerId)).map(async (row) => ({
      ...requestView(row),
      link:
        row.exportSealed && row.expiresAt && row.expiresAt.getTime() > now
          ? await exportLink(ctx, row.id)
          : null,
    })),
  );
}

/** GET /api/users/data-requests: the payer's requests and whether their name may be corrected. */
export async function listPayerRights(
  ctx: Pick<TAppContext, 'db' | 'clock' | 'config'>,
  payerId: string,
): Promise<Omit<TPayerRightsResponse, 'success'>> {
  const [payer] = await ctx.db
    .select({ fullName: payers.fullName, bvnVerifiedAt: payers.bvnVerifiedAt })
    .from(payers)
    .where(eq(payers.id, payerId));
  if (!payer) throw new AppError('AUTH_TOKEN_UNAVAILABLE');
  const rule = nameCorrection({ bvnVerified: payer.bvnVerifiedAt !== null });
  return {
    requests: await listedRequestsOf(ctx, payerId),
    name: {
      fullName: payer.fullName,
      correctable: rule.correctable,
      whyNot: rule.correctable ? null : rule.why,
    },
  };
}

/**
 * A request of `kind` received, or the one of that kind still open: one statement, which the
 * unique index of open requests makes the only one of two at once. `then` runs in the same
 * transaction for a new one only; `first`, in it before anything, for either (a throw there
 * leaves nothing written).
 */
async function receive(
  ctx: Pick<TAppContext, 'db' | 'clock'>,
  payerId: string,
  kind: TPayerRightsKind,
  then: (tx: TDb, requestId: string, now: Date) => Promise<void>,
  first?: (tx: TDb, now: Date) => Promise<void>,
): Promise<TPayerRightsRequest> {
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    await first?.(tx, now);
    const [inserted] = await tx
      .insert(payerRightsRequests)
      .values({
        id: randomId('prr'),
        payerId,
        kind,
        receivedAt: now,
        dueAt: answerDueAt(now),
        // An erasure's answer on receipt: what it may keep; its job stores what it kept.
        kept: kind === 'erasure' ? ERASURE_HOLDS : null,
      })
      .onConflictDoNothing()
      .returning();
    if (inserted) await then(tx, inserted.id, now);
    return inserted;
  });
  if (row) return requestView(row);
  const [open] = await ctx.db
    .select()
    .from(payerRightsRequests)
    .where(
      and(
        eq(payerRightsRequests.payerId, payerId),
        eq(payerRightsRequests.kind, kind),
        eq(payerRightsRequests.status, 'received'),
      ),
    );
  // Done between the two statements: what it answered.
  return open
    ? requestView(open)
    : (await requestsOf(ctx.db, payerId)).find((r) => r.kind === kind)!;
}

/** POST /api/users/data-exports: a copy asked for, its job queued with the request. */
export function askExport(
  ctx: Pick<TAppContext, 'db' | 'clock' | 'jobs'>,
  payerId: string,
): Promise<TPayerRightsRequest> {
  return receive(ctx, payerId, 'export', async (tx, requestId) => {
    await ctx.jobs.enqueue(tx, EXPORT_JOB, { requestId }, { singletonKey: requestId });
  });
}

/**
 * POST /api/users/data-erasures: the erasure asked for, signed by the payer's passkey as they ask
 * (erasure-signature.ts); with it, the payer's active consents stopped, each revocation's audit
 * row keeping the signature, and the merchants who received their data told (erasure.ts step 1).
 * The signature's nonce is used up in the same transaction, whether the request is new or open.
 */
export async function askErasure(
  ctx: Pick<TAppContext, 'db' | 'clock' | 'jobs' | 'config'>,
  session: { payerId: string; sessionId: string },
  signed: TErasureRequest,
): Promise<TPayerRightsRequest> {
  const { payerId } = session;
  const signature = await checkErasureSignature(ctx, session, signed);
  return receive(
    ctx,
    payerId,
    'erasure',
    async (tx, requestId, now) => {
      await stopConsentsForErasure(ctx.jobs, tx, payerId, now, signature);
      await tellMerchantsOfErasure(ctx.jobs, tx, payerId, now);
      await ctx.jobs.enqueue(tx, ERASURE_JOB, { requestId }, { singletonKey: requestId });
    },
    (tx, now) => claimErasureNonce(tx, signed.nonce, now),
  );
}

/**
 * PUT /api/users/name: the name the payer gave, changed in one statement that also requires no
 * verified BVN; the correction recorded as a request done at once. The same name again changes
 * and records nothing.
 */
export async function correctName(
  ctx: Pick<TAppContext, 'db' | 'clock' | 'config'>,
  payerId: string,
  fullName: string,
): Promise<Omit<TPayerRightsResponse, 'success'>> {
  const now = ctx.clock.now();
  const name = fullName.trim();
  await ctx.db.transaction(async (tx) => {
    const [changed] = await tx
      .update(payers)
      .set({ fullName: name })
      .where(and(eq(payers.id, payerId), isNull(payers.bvnVerifiedAt), ne(payers.fullName, name)))
      .returning({ id: payers.id });
    if (changed) {
      await tx.insert(payerRightsRequests).values({
        id: randomId('prr'),
        payerId,
        kind: 'correction',
        status: 'done',
        receivedAt: now,
        dueAt: answerDueAt(now),
        doneAt: now,
      });
    }
  });
  const answer = await listPayerRights(ctx, payerId);
  if (!answer.name.correctable) throw new AppError('NAME_NOT_CORRECTABLE');
  return answer;
}

/** The key a copy is sealed under while its link lasts. */
async function exportKey(db: TDb): Promise<Buffer> {
  return sealingKey(await storedSecret(db, 'payer-export-seal'), 'oya-money-export', 'export');
}
const exportLabel = (requestId: string) => `payer-export:${requestId}`;

async function exportMac(ctx: Pick<TAppContext, 'db' | 'config'>, requestId: string) {
  const keys = await identityKeys(ctx.db, ctx.config);
  return createHmac('sha256', keys.phoneCodeKey)
    .update(exportLabel(requestId))
    .digest('base64url')
    .slice(0, 32);
}

/** The link to a prepared copy: its printable page, the token naming that copy alone. */
async function exportLink(ctx: Pick<TAppContext, 'db' | 'config'>, requestId: string) {
  return exportPageUrl(ctx.config.publicUrl, `${requestId}.${await exportMac(ctx, requestId)}`);
}

/**
 * The export's job: the copy gathered, sealed, the request done with its link's expiry and the
 * SMS queued, in one transaction that takes the request only while it is received.
 */
export async function prepareExport(
  ctx: Pick<TAppContext, 'db' | 'clock' | 'config' | 'jobs'>,
  requestId: string,
): Promise<{ prepared: boolean }> {
  const now = ctx.clock.now();
  const [request] = await ctx.db
    .select()
    .from(payerRightsRequests)
    .where(and(eq(payerRightsRequests.id, requestId), eq(payerRightsRequests.status, 'received')));
  if (!request || request.kind !== 'export') return { prepared: false };
  const [payer] = await ctx.db.select().from(payers).where(eq(payers.id, request.payerId));
  if (!payer) return { prepared: false };
  const file = await payerExport(ctx.db, payer.id, await requestsOf(ctx.db, payer.id), now);
  const sealed = sealText(JSON.stringify(file), await exportKey(ctx.db), exportLabel(requestId));
  const expiresAt = new Date(now.getTime() + EXPORT_LINK_TTL_MS);
  const url = await exportLink(ctx, requestId);
  const outbox = await openSmsOutbox({ ...ctx, smsGate: SMS_ASKED_BY_NO_CALL });
  const sms = await ctx.db.transaction(async (tx) => {
    const [done] = await tx
      .update(payerRightsRequests)
      .set({ status: 'done', doneAt: now, exportSealed: sealed, expiresAt })
      .where(and(eq(payerRightsRequests.id, requestId), eq(payerRightsRequests.status, 'received')))
      .returning({ id: payerRightsRequests.id });
    if (!done) return null;
    return outbox.queue(tx, exportLabel(requestId), {
      phoneNumber: payer.phoneNumber,
      body: exportReadyMessage(url, formatPaymentDate(expiresAt.toISOString()) ?? ''),
    });
  });
  if (sms) await sendQueuedSms(ctx.jobs, [sms]);
  return { prepared: sms !== null };
}

/**
 * GET /api/payer-exports/{token}: the copy the SMS's link names, while the link lasts. A token
 * made up or cut, of a copy not ready, expired or erased, is PAYER_EXPORT_NOT_FOUND alike.
 */
export async function readExport(
  ctx: Pick<TAppContext, 'db' | 'clock' | 'config'>,
  token: string,
): Promise<Omit<TPayerExportResponse, 'success'>> {
  const dot = token.lastIndexOf('.');
  const requestId = token.slice(0, dot);
  if (dot <= 0 || !sameSecret(token.slice(dot + 1), await exportMac(ctx, requestId))) {
    throw new AppError('PAYER_EXPORT_NOT_FOUND');
  }
  const [row] = await ctx.db
    .select()
    .from(payerRightsRequests)
    .where(and(eq(payerRightsRequests.id, requestId), eq(payerRightsRequests.kind, 'export')));
  const now = ctx.clock.now();
  if (!row?.exportSealed || !row.expiresAt || row.expiresAt.getTime() <= now.getTime()) {
    throw new AppError('PAYER_EXPORT_NOT_FOUND');
  }
  const data = JSON.parse(
    unsealText(row.exportSealed, await exportKey(ctx.db), exportLabel(requestId)),
  ) as TPayerExportResponse['data'];
  return {
    expiresAt: row.expiresAt.toISOString(),
    fileName: exportFileName(data.preparedAt),
    data,
  };
}

/** The periodic sweep: copies whose links expired are erased. Answers how many. */
export async function eraseExpiredExports(ctx: Pick<TAppContext, 'db' | 'clock'>) {
  const erased = await ctx.db
    .update(payerRightsRequests)
    .set({ exportSealed: null })
    .where(lt(payerRightsRequests.expiresAt, ctx.clock.now()))
    .returning({ id: payerRightsRequests.id });
  return erased.length;
}
