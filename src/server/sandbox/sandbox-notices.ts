import { and, eq, inArray, lt } from 'drizzle-orm';
import { z } from 'zod';
import { CURRENCY_CODE } from '../../domain/constants';
import type { TSandboxTransferOutcome } from '../../domain/schemas/sandbox';
import type { TClock } from '../clock';
import type { TDb } from '../db/database';
import { sandboxTransfers } from '../db/schema';
import { hmacSha512Hex, isHmacSha512Hex } from '../providers/notice-signature';
import type {
  TCardChargeOutcome,
  TCardSummary,
  TProviderNotice,
  TRawNotice,
} from '../providers/payments';
import { storedSecret } from '../crypto/server-secrets';
import { creditAnsweredTransfer, sandboxSender, transferProviderReference } from './sandbox-bank';
import type { TSandboxCardNetwork } from './sandbox-card-network';

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
 *
 * The card network tells us the same way how a 3-D Secure check ended (answerThreeDs): the payer's
 * answer on the issuer's page is recorded at the network first (resolveThreeDs), then its notice
 * of the charge (charge.success, with the card and the token that charges it again, or
 * charge.failed, with the reason) goes through the same route, where the notice settles the
 * attempt or the card link in the completion path every provider's word takes. It is sent once:
 * the network keeps no notice owed for a charge, since our side asks it about a charge still
 * waiting at its check (the reconciler's 3-D Secure sweep, THREE_DS_ASK_AFTER_MS; a card link's
 * is handed to the reconciler by the page's answer itself, sandbox-challenges.ts
 * answerSandboxChallenge, as the link's side reads it: card-link-notices.ts linkChallengeAnswer).
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

const ZCardSummary = z.object({
  brand: z.enum(['visa', 'mastercard', 'verve']),
  first6: z.string().regex(/^\d{6}$/),
  last4: z.string().regex(/^\d{4}$/),
}) satisfies z.ZodType<TCardSummary>;

/** What every notice of money names: whose it is, how much of what, the network's reference. */
const ZMoney = {
  reference: z.string().min(1),
  amount: z.number().int().positive(),
  currency: z.string().min(1),
  providerReference: z.string().min(1),
};

const ZSandboxNotice = z.discriminatedUnion('event', [
  z.object({
    event: z.literal('transfer.received'),
    data: z.object({ ...ZMoney, sender: ZSender.nullable() }),
  }),
  z.object({
    event: z.literal('account.expired'),
    data: z.object({ reference: z.string().min(1) }),
  }),
  z.object({
    event: z.literal('charge.success'),
    data: z.object({ ...ZMoney, card: ZCardSummary, token: z.string().min(1).nullable() }),
  }),
  z.object({
    event: z.literal('charge.failed'),
    data: z.object({ ...ZMoney, card: ZCardSummary.nullable(), reason: z.string().min(1) }),
  }),
]);

const ZEvent = z.object({ event: z.string() });

/** A notice the sandbox defines, in the port's words. */
function noticeOf(read: z.infer<typeof ZSandboxNotice>): TProviderNotice {
  switch (read.event) {
    case 'transfer.received':
      return { kind: 'transfer_received', ...read.data };
    case 'account.expired':
      return { kind: 'transfer_account_expired', reference: read.data.reference };
    case 'charge.success': {
      const { reference, currency, amount, providerReference, card, token } = read.data;
      return {
        kind: 'charge',
        channel: 'card',
        reference,
        currency,
        outcome: { kind: 'taken', providerReference, amount, givenBack: false, card, token },
      };
    }
    case 'charge.failed': {
      const { reference, currency, providerReference, reason } = read.data;
      return {
        kind: 'charge',
        channel: 'card',
        reference,
        currency,
        outcome: { kind: 'not_taken', providerReference, reason },
      };
    }
  }
}

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
  if (read.success) return noticeOf(read.data);
  const other = ZEvent.safeParse(body);
  return other.success ? { kind: 'ignored', event: other.data.event } : null;
}

/** A notice's body as the sandbox sends it: signed, in `x-sandbox-signature`. */
async function signed(db: TDb, notice: { event: string; data: object }) {
  const body = JSON.stringify(notice);
  const signature = signSandboxNotice(await sandboxNoticeKey(db), body);
  return {
    body,
    headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
  };
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
  return signed(db, {
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
}

/** A card charge the network ended: whose it is (our reference), how much, and how it ended. */
type TEndedCharge = {
  reference: string;
  amount: number;
  providerReference: string;
  outcome: Extract<TCardChargeOutcome, { kind: 'succeeded' | 'failed' }>;
};

/** The card network's notice of a charge that ended, as it sends it: its body, signed. */
function signedChargeNotice(db: TDb, { outcome, ...charge }: TEndedCharge) {
  // A naira network: every charge is in naira, and its notices say so.
  const money = { ...charge, currency: CURRENCY_CODE };
  return outcome.kind === 'succeeded'
    ? signed(db, {
        event: 'charge.success',
        data: { ...money, card: outcome.card, token: outcome.token },
      })
    : signed(db, {
        event: 'charge.failed',
        data: { ...money, card: outcome.card, reason: outcome.reason },
      });
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
  /**
   * Tells that the one-time account opened for `reference` was closed before its time (its
   * 'Expire this account now'); whether our route answered it 2xx. Sent once: one not answered
   * ends at the account's own expiry, by the reconciler's sweep.
   */
  sendAccountExpiredNotice(reference: string): Promise<boolean>;
  /** Sends again every owed notice last sent SANDBOX_NOTICE_RETRY_MS ago or more; how many. */
  resendOwed(): Promise<number>;
  /**
   * The payer's answer on the issuer's 3-D Secure page: `cards` records it, then its notice of
   * the charge is sent once. false for a challenge the network does not know (nothing sent).
   */
  answerThreeDs(
    cards: TSandboxCardNetwork,
    providerReference: string,
    approved: boolean,
  ): Promise<boolean>;
};

/** Posts a notice; whether our route answered it 2xx. */
async function answered(post: TNoticePost, notice: Parameters<TNoticePost>[0]): Promise<boolean> {
  try {
    const { statusCode } = await post(notice);
    return statusCode >= 200 && statusCode < 300;
  } catch {
    return false;
  }
}

/** The network's answer to a 3-D Secure check, told by its notice (TSandboxNotices.answerThreeDs). */
async function answerThreeDs(
  db: TDb,
  post: TNoticePost,
  {
    cards,
    providerReference,
    approved,
  }: {
    cards: TSandboxCardNetwork;
    providerReference: string;
    approved: boolean;
  },
): Promise<boolean> {
  const charge = await cards.describeCharge(providerReference);
  const outcome = charge && (await cards.resolveThreeDs(providerReference, approved));
  if (!charge || !outcome) return false;
  // Answered, a check ends; one the network still holds open has nothing to tell.
  if (outcome.kind !== 'succeeded' && outcome.kind !== 'failed') return true;
  const { reference, amount } = charge;
  // Not answered 2xx: nothing is owed here. The charge waits at its check on our side, where
  // the reconciler's 3-D Secure sweep asks the network about it.
  await answered(
    post,
    await signedChargeNotice(db, { reference, amount, providerReference, outcome }),
  );
  return true;
}

/** The sandbox's notice sender, posting through `post` (buildApp: the app's own notices route). */
export function sandboxNotices(db: TDb, clock: TClock, post: TNoticePost): TSandboxNotices {
  async function deliver(row: typeof sandboxTransfers.$inferSelect) {
    if (row.outcome !== 'received' || row.reference === null) return row.outcome;
    const notice = await signedTransferNotice(db, { ...row, reference: row.reference });
    // Not answered: owed, sent again later.
    if (await answered(post, notice)) return creditAnsweredTransfer(db, clock, row.id);
    const [current] = await db
      .select({ outcome: sandboxTransfers.outcome })
      .from(sandboxTransfers)
      .where(eq(sandboxTransfers.id, row.id));
    return current?.outcome ?? null;
  }

  return {
    answerThreeDs: (cards, providerReference, approved) =>
      answerThreeDs(db, post, { cards, providerReference, approved }),
    sendAccountExpiredNotice: async (reference) =>
      answered(post, await signed(db, { event: 'account.expired', data: { reference } })),
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
