// Migration 0075 makes a pushed terminal's request called off unpaid a state of its attempt: the
// chip attempts that ended failed with the called-off reason and no stage move to the
// 'called_off' stage; a chip attempt declined, or a card attempt that carries the same words, stay
// as they were. Its UPDATE is run again on such rows.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLED_OFF_REASON } from '../../domain/payment-attempts';
import { paymentAttempts } from './schema';
import { consentWithPayment } from '../testing/payments';
import { backfillOf } from '../testing/old-links';
import { startTestApp } from '../testing/test-app';

let ctx: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => {
  ctx = await startTestApp({ webhookDelivery: 'manual' });
});
afterAll(async () => {
  await ctx.close();
});

/** The migration's UPDATE statements, its comments left out. */
const moves = backfillOf('0075_called_off_state.sql');

describe('migration 0075 on attempts ended before the called-off state was kept', () => {
  it('moves a called-off chip attempt to its state, and no other', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const now = new Date();
    const attempt = async (id: string, row: Partial<typeof paymentAttempts.$inferInsert>) => {
      await ctx.database.db.insert(paymentAttempts).values({
        id,
        paymentId: consent.paymentId,
        consentId: consent.consentId,
        method: 'chip_card',
        status: 'failed',
        stage: null,
        amount: consent.amount,
        provider: 'paystack',
        failureReason: CALLED_OFF_REASON,
        createdAt: now,
        updatedAt: now,
        ...row,
      });
      return id;
    };
    const calledOff = await attempt('att_calledoff0000001', {});
    const declined = await attempt('att_declined00000001', { failureReason: 'declined' });
    const card = await attempt('att_cardwords0000001', { method: 'card' });
    expect(moves).toHaveLength(1);
    for (const statement of moves) await ctx.database.db.execute(sql.raw(statement));
    const stageOf = async (id: string) =>
      (
        await ctx.database.db
          .select({ stage: paymentAttempts.stage, status: paymentAttempts.status })
          .from(paymentAttempts)
          .where(eq(paymentAttempts.id, id))
      )[0];
    expect(await stageOf(calledOff)).toEqual({ stage: 'called_off', status: 'failed' });
    expect(await stageOf(declined)).toEqual({ stage: null, status: 'failed' });
    expect(await stageOf(card)).toEqual({ stage: null, status: 'failed' });
  });
});
