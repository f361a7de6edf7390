// An attempt's payment grants its consent in the statement that pays it (moves.ts payAttempt):
// only when the attempt moved, and only a consent still pending. Each case runs in a transaction
// rolled back at its end, so no payment stays executed outside the books.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TDb } from '../../../db/database';
import { consents, paymentAttempts, payments } from '../../../db/schema';
import { consentWithPayment, openTransferAccount } from '../../../testing/payments';
import { useTestApp } from '../../../testing/test-app';
import { payAttempt } from './moves';

const ctx = useTestApp();
const now = new Date('2026-11-24T10:00:00.000Z');
const origin = {
  paymentMethod: 'bank_transfer',
  bankName: null,
  accountNumber: null,
  accountName: null,
  institutionCode: null,
  logo: null,
  isNewAccount: false,
  shouldPromptBankAccountLinking: false,
} as const;

/** A consent granted by its payment, whose payment has an open transfer account. */
async function openTransfer() {
  const consent = await consentWithPayment(ctx.app, ctx.database);
  await openTransferAccount(ctx.app, consent);
  const [attempt] = await ctx.database.db
    .select({ id: paymentAttempts.id })
    .from(paymentAttempts)
    .where(eq(paymentAttempts.paymentId, consent.paymentId));
  if (!attempt) throw new Error('no attempt');
  return { ...consent, attemptId: attempt.id };
}

/** Runs `work` in a transaction that is rolled back once it has answered. */
async function rolledBack<T>(work: (tx: TDb) => Promise<T>): Promise<T> {
  let answer: T | undefined;
  await expect(
    ctx.database.db.transaction(async (tx) => {
      answer = await work(tx);
      tx.rollback();
    }),
  ).rejects.toThrow('Rollback');
  return answer as T;
}

/**
 * Pays `paid` (by another attempt when given), asking that its consent be granted by `grantedBy`,
 * and reads what the statement left.
 */
async function payAndRead(
  tx: TDb,
  paid: Awaited<ReturnType<typeof openTransfer>>,
  {
    attemptId = paid.attemptId,
    grantedBy = null,
  }: { attemptId?: string; grantedBy?: string | null },
) {
  const answer = await payAttempt(
    tx,
    { ...paid, attemptId, origin, grant: { consentId: paid.consentId, grantedBy } },
    'complete',
    {},
    now,
  );
  return {
    answer,
    consent: await consentOf(tx, paid.consentId),
    payment: await paymentStatus(tx, paid.paymentId),
  };
}

const consentOf = async (tx: TDb, consentId: string) => {
  const [row] = await tx
    .select({ status: consents.status, grantedAt: consents.grantedAt, by: consents.grantedBy })
    .from(consents)
    .where(eq(consents.id, consentId));
  return row;
};
const paymentStatus = async (tx: TDb, paymentId: string) =>
  (await tx.select().from(payments).where(eq(payments.id, paymentId)))[0]?.status;

describe('payAttempt asked to grant its consent', () => {
  it('grants a pending consent with the payment, by the one who paid', async () => {
    const paid = await openTransfer();
    const seen = await rolledBack((tx) => payAndRead(tx, paid, { grantedBy: 'pyr_tola' }));
    expect(seen).toMatchObject({
      answer: { attempt: { id: paid.attemptId, status: 'completed' }, consentGranted: true },
      consent: { status: 'granted', grantedAt: now, by: 'pyr_tola' },
      payment: 'executed',
    });
  });

  it('grants nothing when the attempt did not move', async () => {
    const paid = await openTransfer();
    const seen = await rolledBack((tx) =>
      payAndRead(tx, paid, { attemptId: 'att_not_this_payment' }),
    );
    expect(seen).toEqual({
      answer: null,
      consent: { status: 'pending', grantedAt: null, by: null },
      payment: 'pending',
    });
  });

  it('pays, and leaves as it is a consent no longer pending', async () => {
    const paid = await openTransfer();
    const seen = await rolledBack(async (tx) => {
      await tx.update(consents).set({ status: 'declined' }).where(eq(consents.id, paid.consentId));
      return payAndRead(tx, paid, {});
    });
    expect(seen).toMatchObject({
      answer: { attempt: { status: 'completed' }, consentGranted: false },
      consent: { status: 'declined', grantedAt: null, by: null },
      payment: 'executed',
    });
  });
});
