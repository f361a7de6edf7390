import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  COMPLAINT_TRANSITIONS,
  complaintDeadlines,
  complaintReference,
  type TComplaintEdge,
} from '../../../domain/complaints';
import type { TComplaint, TRaiseComplaintRequest } from '../../../domain/schemas/payer-protections';
import type { TAppContext } from '../../context';
import { randomId } from '../../crypto/secret-hash';
import type { TDb } from '../../db/database';
import { consents, merchants, paymentComplaints, payments } from '../../db/schema';
import { AppError } from '../../app-error';
import { recordConsentChange } from '../consents/consent-changes';

/*
 * A payer's complaints about their payments (docs/payer-consents.md "Complaints").
 *
 * Raising one is one transaction: the complaint is written with its reference and its targets
 * (the settings COMPLAINT_ACKNOWLEDGE_HOURS and COMPLAINT_RESOLVE_DAYS from the moment it is
 * raised), and the merchant's payment.complaint_raised with the consent's audit row
 * (recordConsentChange: the webhook's delivery queued on the jobs). A payment has at most one
 * open complaint (a unique index): raising it again, or two raises at once, answer the open one,
 * so a retry never makes a second. Its reference is made from a sequence's next value, one for
 * each (never a clash the payer would see as a failure). The operator reads the open ones (GET /api/operator/complaints)
 * and moves them by COMPLAINT_TRANSITIONS, each move one conditional UPDATE.
 */

type TComplaintContext = Pick<TAppContext, 'db' | 'clock' | 'config' | 'jobs'>;

/** The most serials a raise draws: more than one only past references a row already holds. */
const SERIALS_DRAWN = 4;

/**
 * A reference no complaint has: made from the next value of the payment_complaint_serials
 * sequence (migration 0072), one reference for each (domain/complaints.ts complaintReference).
 */
async function nextReference(tx: TDb): Promise<string> {
  const result = await tx.execute(sql`select nextval('payment_complaint_serials')::text as serial`);
  const [row] = (result as { rows: Array<{ serial: string }> }).rows;
  if (!row) throw new Error('payment_complaint_serials gave no value');
  return complaintReference(BigInt(row.serial));
}

const complaintColumns = {
  complaint: paymentComplaints,
  merchantName: merchants.name,
  amount: payments.amount,
};

type TComplaintRow = {
  complaint: typeof paymentComplaints.$inferSelect;
  merchantName: string;
  amount: number;
};

function complaintView({ complaint, merchantName, amount }: TComplaintRow): TComplaint {
  const iso = (at: Date | null) => (at ? at.toISOString() : null);
  return {
    complaintId: complaint.id,
    reference: complaint.reference,
    paymentId: complaint.paymentId,
    consentId: complaint.consentId,
    merchant: { merchantId: complaint.merchantId, name: merchantName },
    amount,
    category: complaint.category,
    description: complaint.description,
    state: complaint.state,
    raisedAt: complaint.createdAt.toISOString(),
    acknowledgeBy: complaint.acknowledgeBy.toISOString(),
    resolveBy: complaint.resolveBy.toISOString(),
    acknowledgedAt: iso(complaint.acknowledgedAt),
    resolvedAt: iso(complaint.resolvedAt),
    resolution: complaint.resolution,
  };
}

/** Complaints with their merchant's name and payment's amount, newest first. */
const selectComplaints = (db: TDb) =>
  db
    .select(complaintColumns)
    .from(paymentComplaints)
    .innerJoin(merchants, eq(merchants.id, paymentComplaints.merchantId))
    .innerJoin(payments, eq(payments.id, paymentComplaints.paymentId));

/**
 * Writes the complaint with a reference of its own, or nothing when its payment already has an
 * open complaint (null). Nothing else is conflicted on: ON CONFLICT DO NOTHING takes both unique
 * indexes without failing the transaction, and a row it did not write for a reference another
 * complaint holds (one written before references came from the sequence) draws the next serial.
 */
async function writeComplaint(
  tx: TDb,
  values: typeof paymentComplaints.$inferInsert,
): Promise<typeof paymentComplaints.$inferSelect | null> {
  for (let drawn = 0; drawn < SERIALS_DRAWN; drawn += 1) {
    const [written] = await tx
      .insert(paymentComplaints)
      .values({ ...values, reference: await nextReference(tx) })
      .onConflictDoNothing()
      .returning();
    if (written) return written;
    const [open] = await tx
      .select({ id: paymentComplaints.id })
      .from(paymentComplaints)
      .where(
        and(
          eq(paymentComplaints.paymentId, values.paymentId),
          sql`${paymentComplaints.state} <> 'resolved'`,
        ),
      );
    if (open) return null;
  }
  throw new Error(`No free complaint reference in ${SERIALS_DRAWN} serials`);
}

/**
 * POST /api/users/complaints: the payer complains about one of their payments. Another payer's
 * payment, or none, is PAYMENT_NOT_FOUND. Answers the complaint and whether it is new (201) or
 * the payment's open one (200).
 */
export async function raiseComplaint(
  ctx: TComplaintContext,
  payerId: string,
  input: TRaiseComplaintRequest,
): Promise<{ complaint: TComplaint; created: boolean }> {
  const [paid] = await ctx.db
    .select({
      consentId: consents.id,
      merchantId: consents.merchantId,
      clientId: consents.clientId,
    })
    .from(payments)
    .innerJoin(consents, eq(consents.id, payments.consentId))
    .where(and(eq(payments.id, input.paymentId), eq(consents.grantedBy, payerId)));
  if (!paid) throw new AppError('PAYMENT_NOT_FOUND');
  const now = ctx.clock.now();
  const { acknowledgeBy, resolveBy } = complaintDeadlines(now, ctx.config.complaintTargets);
  const id = await ctx.db.transaction(async (tx) => {
    const written = await writeComplaint(tx, {
      id: randomId('cmp'),
      reference: '',
      payerId,
      paymentId: input.paymentId,
      ...paid,
      category: input.category,
      description: input.description,
      acknowledgeBy,
      resolveBy,
      createdAt: now,
    });
    if (!written) return null;
    await recordConsentChange(ctx.jobs, tx, {
      clientId: paid.clientId,
      consentId: paid.consentId,
      type: 'payment.complaint_raised',
      actor: `payer:${payerId}`,
      data: {
        consentId: paid.consentId,
        paymentId: written.paymentId,
        complaintId: written.id,
        reference: written.reference,
        category: written.category,
        description: written.description,
        raisedAt: now.toISOString(),
        acknowledgeBy: acknowledgeBy.toISOString(),
        resolveBy: resolveBy.toISOString(),
      },
      now,
    });
    return written.id;
  });
  const [row] = await selectComplaints(ctx.db).where(
    id
      ? eq(paymentComplaints.id, id)
      : and(
          eq(paymentComplaints.paymentId, input.paymentId),
          sql`${paymentComplaints.state} <> 'resolved'`,
        ),
  );
  if (!row) throw new Error(`The complaint about ${input.paymentId} was not written`);
  return { complaint: complaintView(row), created: id !== null };
}

/** The complaints a payer raised, newest first. */
export async function listPayerComplaints(db: TDb, payerId: string): Promise<TComplaint[]> {
  const rows = await selectComplaints(db)
    .where(eq(paymentComplaints.payerId, payerId))
    .orderBy(desc(paymentComplaints.createdAt), desc(paymentComplaints.id))
    .limit(COMPLAINTS_LISTED);
  return rows.map(complaintView);
}

/** The most complaints a list answers: the newest. */
const COMPLAINTS_LISTED = 100;

/** GET /api/operator/complaints: the complaints not yet resolved, oldest first (most urgent). */
export async function listOpenComplaints(db: TDb): Promise<TComplaint[]> {
  const rows = await selectComplaints(db)
    .where(inArray(paymentComplaints.state, ['received', 'acknowledged']))
    .orderBy(paymentComplaints.createdAt, paymentComplaints.id)
    .limit(COMPLAINTS_LISTED);
  return rows.map(complaintView);
}

/**
 * POST /api/operator/complaints/{complaintId}/{acknowledge|resolve}: one conditional UPDATE from
 * the edge's states. A resolution says what was done (`note`, required) and acknowledges too if
 * nobody had. A repeat of a move already made answers the complaint as it stands; a move from a
 * state it cannot leave that way is COMPLAINT_NOT_MOVABLE.
 */
export async function moveComplaint(
  ctx: Pick<TAppContext, 'db' | 'clock'>,
  complaintId: string,
  edge: TComplaintEdge,
  note: string | undefined,
): Promise<TComplaint> {
  if (edge === 'resolve' && !note) {
    throw new AppError('VALIDATION_FAILED', 'note: say what was done to resolve the complaint');
  }
  const now = ctx.clock.now();
  const { from, to } = COMPLAINT_TRANSITIONS[edge];
  const moved = await ctx.db
    .update(paymentComplaints)
    .set(
      edge === 'resolve'
        ? {
            state: to,
            resolvedAt: now,
            resolution: note ?? null,
            acknowledgedAt: sql`coalesce(${paymentComplaints.acknowledgedAt}, ${now.toISOString()}::timestamptz)`,
          }
        : { state: to, acknowledgedAt: now },
    )
    .where(and(eq(paymentComplaints.id, complaintId), inArray(paymentComplaints.state, [...from])))
    .returning({ id: paymentComplaints.id });
  const [row] = await selectComplaints(ctx.db).where(eq(paymentComplaints.id, complaintId));
  if (!row) throw new AppError('COMPLAINT_NOT_FOUND');
  if (moved.length === 0 && row.complaint.state !== to) throw new AppError('COMPLAINT_NOT_MOVABLE');
  return complaintView(row);
}
