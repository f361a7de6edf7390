import { and, eq, isNull } from 'drizzle-orm';
import type { TClock } from '../clock';
import type { TDb } from '../db/database';
import { sandboxCardCharges } from '../db/schema';
import type { TCardSummary, TRequeryOutcome, TSettlementLine } from '../providers/payments';

/*
 * The sandbox card network's and acquirer's record of every charge and chip purchase, by our
 * reference (docs/sandbox.md "What the sandbox records"). Each call claims its reference in one
 * statement, so a repeated call (a retry after a lost answer, two at once) finds the first one's
 * record and answers from it: money is taken once per reference. A requery of a reference the
 * network never saw closes it ('expired'), so its answer 'not taken' stays true.
 */

export type TChargeRow = typeof sandboxCardCharges.$inferSelect;
type TChargeValues = Omit<typeof sandboxCardCharges.$inferInsert, 'createdAt' | 'updatedAt'>;

/**
 * Records a call with its outcome, or finds the record of the first call with this reference:
 * `first` says which.
 */
export async function claimCharge(
  db: TDb,
  clock: TClock,
  values: TChargeValues,
): Promise<{ row: TChargeRow; first: boolean }> {
  const now = clock.now();
  const [claimed] = await db
    .insert(sandboxCardCharges)
    .values({ ...values, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning();
  if (claimed) return { row: claimed, first: true };
  const earlier = await chargeByReference(db, values.reference);
  if (!earlier) throw new Error(`Sandbox charge ${values.reference} conflicted but is missing`);
  return { row: earlier, first: false };
}

export async function chargeByReference(db: TDb, reference: string): Promise<TChargeRow | null> {
  const [row] = await db
    .select()
    .from(sandboxCardCharges)
    .where(eq(sandboxCardCharges.reference, reference));
  return row ?? null;
}

/**
 * Moves a pending charge on with the payer's or the issuer's answer, in one statement: it ends,
 * or waits for its next step (`change.awaiting`, a PIN's OTP). `finished` is false when it was not
 * pending (any more) for `awaiting`, and the record is read as it stands.
 */
export async function finishCharge(
  db: TDb,
  clock: TClock,
  reference: string,
  awaiting: TChargeRow['awaiting'],
  change: Pick<TChargeValues, 'status' | 'reason'> & { awaiting?: TChargeRow['awaiting'] },
): Promise<{ row: TChargeRow | null; finished: boolean }> {
  const [finished] = await db
    .update(sandboxCardCharges)
    .set({ awaiting: null, ...change, updatedAt: clock.now() })
    .where(
      and(
        eq(sandboxCardCharges.reference, reference),
        eq(sandboxCardCharges.status, 'pending'),
        awaiting === null
          ? isNull(sandboxCardCharges.awaiting)
          : eq(sandboxCardCharges.awaiting, awaiting),
      ),
    )
    .returning();
  if (finished) return { row: finished, finished: true };
  return { row: await chargeByReference(db, reference), finished: false };
}

/**
 * Gives a succeeded charge back whole, once: a repeat finds it given back already. Throws when
 * the network holds no succeeded charge of `providerReference` (nothing to give back).
 */
export async function giveBackCharge(
  db: TDb,
  clock: TClock,
  channel: TChargeRow['channel'],
  providerReference: string,
): Promise<void> {
  const [given] = await db
    .update(sandboxCardCharges)
    .set({ givenBackAt: clock.now(), updatedAt: clock.now() })
    .where(
      and(
        eq(sandboxCardCharges.providerReference, providerReference),
        eq(sandboxCardCharges.channel, channel),
        eq(sandboxCardCharges.status, 'succeeded'),
        isNull(sandboxCardCharges.givenBackAt),
      ),
    )
    .returning({ reference: sandboxCardCharges.reference });
  if (given) return;
  const [before] = await db
    .select({ givenBackAt: sandboxCardCharges.givenBackAt })
    .from(sandboxCardCharges)
    .where(
      and(
        eq(sandboxCardCharges.providerReference, providerReference),
        eq(sandboxCardCharges.channel, channel),
        eq(sandboxCardCharges.status, 'succeeded'),
      ),
    );
  if (!before?.givenBackAt) throw new Error('The sandbox holds no such charge to give back');
}

export const cardOfRow = (row: TChargeRow): TCardSummary | null =>
  row.cardBrand && row.cardFirst6 && row.cardLast4
    ? {
        brand: row.cardBrand as TCardSummary['brand'],
        first6: row.cardFirst6,
        last4: row.cardLast4,
      }
    : null;

/**
 * What became of the call with `reference`: a reference the network never saw is closed here
 * (recorded 'expired', nothing taken), so a call that arrives after this answer is refused.
 */
export async function requeryCharge(
  db: TDb,
  clock: TClock,
  channel: TChargeRow['channel'],
  reference: string,
): Promise<TRequeryOutcome<{ row: TChargeRow }>> {
  const { row } = await claimCharge(db, clock, {
    reference,
    channel,
    amount: 0,
    status: 'expired',
    reason: 'expired',
  });
  switch (row.status) {
    case 'succeeded':
      if (!row.providerReference) throw new Error(`Sandbox charge ${reference} has no reference`);
      return {
        kind: 'taken',
        providerReference: row.providerReference,
        amount: row.amount,
        givenBack: row.givenBackAt !== null,
        row,
      };
    case 'pending':
      return { kind: 'pending', awaiting: row.awaiting, providerReference: row.providerReference };
    case 'failed':
    case 'expired':
      return {
        kind: 'not_taken',
        providerReference: row.providerReference,
        reason: row.reason ?? row.status,
      };
  }
}

/** The card network's and the acquirer's lines of the settlement report: every charge taken. */
export async function chargeSettlementLines(db: TDb): Promise<TSettlementLine[]> {
  const rows = await db
    .select()
    .from(sandboxCardCharges)
    .where(eq(sandboxCardCharges.status, 'succeeded'));
  return rows.map((row) => ({
    channel: row.channel,
    reference: row.reference,
    amount: row.amount,
    givenBack: row.givenBackAt !== null,
  }));
}
