import { and, desc, eq, isNotNull, or } from 'drizzle-orm';
import type {
  TSandboxTools,
  TSandboxToolChallengeRequest,
  TSandboxToolTransferRequest,
  TSandboxWaitingPayment,
} from '../../../domain/schemas/dashboard-sandbox';
import type { TWebhookEventType } from '../../../domain/schemas/webhooks';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import { consents, paymentAttempts, payments } from '../../db/schema';
import { answerSandboxChallenge, type TWaitingChallenges } from '../../sandbox/sandbox-challenges';
import type { TSandboxNotices } from '../../sandbox/sandbox-notices';
import { sendSandboxTransfer } from '../../sandbox/sandbox-transfers';
import { AppError } from '../../app-error';
import { fireTestEvent } from '../merchants/fire-test-event';
import { recordAudit, type TActor } from './audit';
import { listKeys, listWebhooks } from './developers';

/*
 * The dashboard's Sandbox tools (docs/dashboard.md "Sandbox tools"), for the session's merchant's
 * own payments and keys. Each tool is the sandbox's own code, as /sandbox and
 * `npm run client:trigger` call it: the sandbox bank's transfer (its signed notice through our
 * notices route), the sandbox card network's answer to a 3-D Secure challenge, the operator's
 * test event. The tools only find what they act on among the merchant's payments, and write
 * who used them to the audit log.
 */

type TToolsContext = Pick<
  TAppContext,
  'db' | 'clock' | 'sandbox' | 'providers' | 'config' | 'jobs'
>;
type TWaitingStage = 'awaiting_transfer' | 'awaiting_3ds';

/** How many waiting payments of each kind the screen lists. */
const LISTED = 25;

/** The merchant's payments whose attempt waits at `stage`, newest first; `payment` narrows. */
function waitingAttempts(db: TDb, merchantId: string, stage: TWaitingStage, payment?: string) {
  return db
    .select({ attempt: paymentAttempts, payment: payments, reference: consents.reference })
    .from(paymentAttempts)
    .innerJoin(payments, eq(payments.id, paymentAttempts.paymentId))
    .innerJoin(consents, eq(consents.id, payments.consentId))
    .where(
      and(
        eq(consents.merchantId, merchantId),
        eq(paymentAttempts.stage, stage),
        isNotNull(paymentAttempts.providerReference),
        payment === undefined ? undefined : namedBy(payment),
      ),
    )
    .orderBy(desc(paymentAttempts.createdAt), desc(paymentAttempts.id))
    .limit(LISTED);
}

/** A payment named by its id or by its consent's reference. */
const namedBy = (payment: string) =>
  or(eq(payments.id, payment.trim()), eq(consents.reference, payment.trim()));

type TWaitingRow = Awaited<ReturnType<typeof waitingAttempts>>[number];

function waitingOf(row: TWaitingRow): TSandboxWaitingPayment {
  const { attempt, payment, reference } = row;
  const account = attempt.transferDetails;
  const card = [attempt.cardBrand, attempt.cardLast4 && `ending ${attempt.cardLast4}`];
  return {
    paymentId: payment.id,
    reference,
    amount: attempt.amount,
    narration: payment.narration,
    detail: account
      ? `${account.bankName} ${account.accountNumber}`
      : card.filter(Boolean).join(' ') || 'Card',
  };
}

/** What the tools may act on now: transfers and 3-D Secure checks waiting, live webhooks. */
export async function sandboxTools(
  db: TDb,
  merchantId: string,
): Promise<Omit<TSandboxTools, 'success'>> {
  const [transfers, challenges, webhooks] = await Promise.all([
    waitingAttempts(db, merchantId, 'awaiting_transfer'),
    waitingAttempts(db, merchantId, 'awaiting_3ds'),
    listWebhooks(db, merchantId),
  ]);
  return {
    transfers: transfers.map(waitingOf),
    challenges: challenges.map(waitingOf),
    activeWebhooks: webhooks.filter((w) => w.status === 'active').length,
  };
}

/**
 * The merchant's payment named `payment` whose attempt waits at `stage`, the newest. None: the
 * payment is not the merchant's (404, as if it did not exist), or it waits on nothing of that
 * kind (`none`). A reference that names waiting payments of two consents (two of the merchant's
 * clients used it) acts on neither: the tool asks for the payment's id.
 */
async function waitingPayment(
  db: TDb,
  merchantId: string,
  payment: string,
  stage: TWaitingStage,
  none: () => AppError,
): Promise<TWaitingRow> {
  const waiting = await waitingAttempts(db, merchantId, stage, payment);
  // A reference is the merchant's per client: two of its clients may have used the same one.
  if (new Set(waiting.map((row) => row.payment.id)).size > 1) {
    throw new AppError('PAYMENT_NAME_AMBIGUOUS');
  }
  if (waiting[0]) return waiting[0];
  const known = await db
    .select({ status: payments.status })
    .from(payments)
    .innerJoin(consents, eq(consents.id, payments.consentId))
    .where(and(eq(consents.merchantId, merchantId), namedBy(payment)))
    .limit(LISTED);
  if (known.length === 0) throw new AppError('PAYMENT_NOT_FOUND');
  if (known.every((row) => row.status === 'executed')) throw new AppError('PAYMENT_ALREADY_MADE');
  throw none();
}

/**
 * The sandbox bank sends a transfer to the one-time account of one of the merchant's payments:
 * `amount` kobo, or what the account was issued for. POST /api/sandbox/transfers's own path.
 */
export async function sendTransferFromDashboard(
  ctx: TToolsContext,
  notices: TSandboxNotices,
  who: TActor,
  body: TSandboxToolTransferRequest,
) {
  const { attempt, payment } = await waitingPayment(
    ctx.db,
    who.merchantId,
    body.payment,
    'awaiting_transfer',
    () => new AppError('NOT_FOUND', 'No one-time account is open for this payment'),
  );
  const accountNumber = attempt.transferDetails?.accountNumber;
  if (!accountNumber)
    throw new Error(`Attempt ${attempt.id} waits for a transfer without an account`);
  const amount = body.amount ?? attempt.amount;
  const sent = await sendSandboxTransfer(ctx, notices, { accountNumber, amount });
  await recordAudit(
    ctx.db,
    who,
    {
      action: 'sandbox.transfer_sent',
      target: payment.id,
      data: { amount, accountNumber, outcome: sent.outcome },
    },
    ctx.clock.now(),
  );
  return { paymentId: payment.id, amount, ...sent };
}

/**
 * The payer's answer to the 3-D Secure check of one of the merchant's card payments, as the
 * sandbox's page gives it (sandbox-challenges.ts), through the same port to our side.
 */
export async function answerChallengeFromDashboard(
  ctx: TToolsContext,
  notices: TSandboxNotices,
  waitingChallenges: TWaitingChallenges,
  who: TActor,
  body: TSandboxToolChallengeRequest,
) {
  const { attempt, payment } = await waitingPayment(
    ctx.db,
    who.merchantId,
    body.payment,
    'awaiting_3ds',
    () => new AppError('NO_THREE_DS_CHALLENGE'),
  );
  const providerReference = attempt.providerReference;
  if (!providerReference) throw new Error(`Attempt ${attempt.id} waits without a reference`);
  const answered = await answerSandboxChallenge(
    ctx,
    notices,
    waitingChallenges,
    providerReference,
    body.approved,
  );
  await recordAudit(
    ctx.db,
    who,
    {
      action: 'sandbox.challenge_answered',
      target: payment.id,
      data: { approved: body.approved, status: answered.status, amount: attempt.amount },
    },
    ctx.clock.now(),
  );
  return { paymentId: payment.id, ...answered };
}

/** A test event of `type` for each of the merchant's API keys, delivered to their webhooks. */
export async function fireEventFromDashboard(
  ctx: Pick<TAppContext, 'db' | 'clock' | 'sandbox' | 'jobs'>,
  who: TActor,
  type: TWebhookEventType,
) {
  const now = ctx.clock.now();
  const keys = await listKeys(ctx.db, who.merchantId, now);
  const events = [];
  for (const { clientId } of keys) {
    const event = await fireTestEvent(ctx, {
      clientId,
      type,
      sandbox: ctx.sandbox !== null,
      now,
    });
    events.push({ clientId, event });
  }
  const webhooks = await listWebhooks(ctx.db, who.merchantId);
  await recordAudit(
    ctx.db,
    who,
    {
      action: 'sandbox.event_fired',
      target: type,
      data: { eventIds: events.map((e) => e.event.id) },
    },
    now,
  );
  return { events, activeWebhooks: webhooks.filter((w) => w.status === 'active').length };
}
