import { and, eq, inArray, lt } from 'drizzle-orm';
import { z } from 'zod';
import { CURRENCY_CODE } from '../../domain/constants';
import type { TSandboxTransferOutcome } from '../../domain/schemas/sandbox';
import type { TClock } from '../clock';
import type { TDb } from '../db/database';
import { sandboxTransfers } from '../db/schema';
import { hmacSha512Hex, isHmacSha512Hex } from '../providers/notice-signature';
import type { TProviderNotice, TRawNotice } from '../providers/payments';
import { storedSecret } from '../services/server-secrets';
import { creditAnsweredTransfer, sandboxSender, transferProviderReference } from './sandbox-bank';

/*
 * The sandbox network's notices to us (docs/sandbox.md "Notices"): what a real provider sends as
 * a webhook, the sandbox sends the same way, so every flow that pays by transfer goes through
 * the notices route and its checks.
 *
 * 1. A transfer reaching a one-time account is recorded at the bank, 'received', in the bank's
 *    own transaction (sandbox-bank.ts receiveTransfer): its notice is owed from then on.
 * 2. The notice is sent: a JSON body signed with HMAC-SHA512 (hex, in `x-sandbox-signature`)
 *    under a key kept among the server's secrets, POSTed to /api/providers/sandbox/notices.
 *    The route verifies it with the adapter (readSandboxNotice) and applies it in our one
 *    completion path; a transfer we do not take is given back through returnTransfer before the
 *    route answers.
 * 3. Answered 2xx, the transfer not given back is credited at the bank (creditAnsweredTransfer).
 * A notice answered otherwise, or never answered (a crash between 1 and 3), stays owed: it is
 * sent again at start and every SANDBOX_NOTICE_RETRY_MS until it is answered, and our side
 * answers a notice it applied before as it did the first time, changing nothing.
 */

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

/** How long an owed notice waits after a send before it is sent again. */
export const SANDBOX_NOTICE_RETRY_MS = 5_000;

/** Owed notices sent again in one batch. */
const RESEND_BATCH = 50;

const SIGNING_KEY_NAME = 'sandbox-notice-signing-key';

/** How the sandbox reaches our notices route: a POST of `body` with `headers`, its status back. */
export type TNoticePost = (notice: {
  body: string;
  headers: Record<string, string>;
}) => Promise<{ statusCode: number }>;

/** The notice's signature: HMAC-SHA512 of the raw body under the sandbox's key, hex. */
export const signSandboxNotice = hmacSha512Hex;

/** The key the sandbox signs its notices with: one of the server's secrets (server-secrets.ts). */
export const sandboxNoticeKey = (db: TDb): Promise<string> => storedSecret(db, SIGNING_KEY_NAME);

const ZSender = z.object({
  institutionCode: z.string(),
  bankName: z.string(),
  accountNumber: z.string(),
  accountName: z.string(),
});

const ZSandboxNotice = z.discriminatedUnion('event', [
  z.object({
    event: z.literal('transfer.received'),
    data: z.object({
      reference: z.string().min(1),
      amount: z.number().int().positive(),
      currency: z.string().min(1),
      providerReference: z.string().min(1),
      sender: ZSender.nullable(),
    }),
  }),
]);

const ZEvent = z.object({ event: z.string() });

/**
 * TNoticesPort.readNotice for the sandbox: the signature over the raw bytes first (compared in
 * constant time), then the body. null for a missing or wrong signature or an unreadable body; a
 * signed event the sandbox does not define is 'ignored'.
 */
export async function readSandboxNotice(
  db: TDb,
  notice: TRawNotice,
): Promise<TProviderNotice | null> {
  const given = notice.headers[SANDBOX_SIGNATURE_HEADER];
  if (!isHmacSha512Hex(notice.body, given, await sandboxNoticeKey(db))) return null;
  let body: unknown;
  try {
    body = JSON.parse(notice.body.toString('utf8'));
  } catch {
    return null;
  }
  const read = ZSandboxNotice.safeParse(body);
  if (read.success) return { kind: 'transfer_received', ...read.data.data };
  const other = ZEvent.safeParse(body);
  return other.success ? { kind: 'ignored', event: other.data.event } : null;
}

/** The notice of one received transfer, as the sandbox bank sends it: its body, signed. */
async function signedTransferNotice(
  db: TDb,
  row: typeof sandboxTransfers.$inferSelect & { reference: string },
): Promise<{ body: string; headers: Record<string, string> }> {
  const sender =
    row.senderInstitutionCode && row.senderAccountNumber
      ? await sandboxSender(db, {
          institutionCode: row.senderInstitutionCode,
          accountNumber: row.senderAccountNumber,
        })
      : null;
  const body = JSON.stringify({
    event: 'transfer.received',
    data: {
      reference: row.reference,
      amount: row.amount,
      // A naira bank: its notices say so, as a provider's name the currency of what arrived.
      currency: CURRENCY_CODE,
      providerReference: transferProviderReference(row.id),
      sender,
    },
  });
  const signature = signSandboxNotice(await sandboxNoticeKey(db), body);
  return {
    body,
    headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
  };
}

/**
 * The notice the sandbox bank owes of the received transfer `id`, as it reaches us (the
 * provider contract reads it); null for a transfer that owes none.
 */
export async function owedTransferNotice(db: TDb, id: number): Promise<TRawNotice | null> {
  const [row] = await db.select().from(sandboxTransfers).where(eq(sandboxTransfers.id, id));
  if (row?.outcome !== 'received' || row.reference === null) return null;
  const notice = await signedTransferNotice(db, { ...row, reference: row.reference });
  return { body: Buffer.from(notice.body), headers: notice.headers };
}

export type TSandboxNotices = {
  /**
   * Sends the notice of a received transfer and, answered 2xx, credits what was not given back.
   * Answers the transfer's outcome then ('received' while its notice is still owed).
   */
  sendTransferNotice(id: number): Promise<TSandboxTransferOutcome | null>;
  /** Sends again every owed notice last sent SANDBOX_NOTICE_RETRY_MS ago or more; how many. */
  resendOwed(): Promise<number>;
};

/** The sandbox's notice sender, posting through `post` (buildApp: the app's own notices route). */
export function sandboxNotices(db: TDb, clock: TClock, post: TNoticePost): TSandboxNotices {
  async function deliver(row: typeof sandboxTransfers.$inferSelect) {
    if (row.outcome !== 'received' || row.reference === null) return row.outcome;
    let answered = false;
    try {
      const { statusCode } = await post(
        await signedTransferNotice(db, { ...row, reference: row.reference }),
      );
      answered = statusCode >= 200 && statusCode < 300;
    } catch {
      // Not answered: owed, sent again later.
    }
    if (answered) return creditAnsweredTransfer(db, clock, row.id);
    const [current] = await db
      .select({ outcome: sandboxTransfers.outcome })
      .from(sandboxTransfers)
      .where(eq(sandboxTransfers.id, row.id));
    return current?.outcome ?? null;
  }

  return {
    async sendTransferNotice(id) {
      const [row] = await db.select().from(sandboxTransfers).where(eq(sandboxTransfers.id, id));
      return row ? deliver(row) : null;
    },
    async resendOwed() {
      let sent = 0;
      for (;;) {
        const now = clock.now();
        const owed = and(
          eq(sandboxTransfers.outcome, 'received'),
          lt(sandboxTransfers.noticeSentAt, new Date(now.getTime() - SANDBOX_NOTICE_RETRY_MS)),
        );
        // Claimed in one statement (their sent time moved on): two senders never send one at once.
        const claimed = await db
          .update(sandboxTransfers)
          .set({ noticeSentAt: now })
          .where(
            and(
              owed,
              inArray(
                sandboxTransfers.id,
                db
                  .select({ id: sandboxTransfers.id })
                  .from(sandboxTransfers)
                  .where(owed)
                  .orderBy(sandboxTransfers.noticeSentAt)
                  .limit(RESEND_BATCH)
                  .for('update', { skipLocked: true }),
              ),
            ),
          )
          .returning();
        for (const row of claimed) {
          await deliver(row);
          sent += 1;
        }
        if (claimed.length < RESEND_BATCH) return sent;
      }
    },
  };
}
