import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentAttempts } from '../db/schema';
import { moveAttempt } from '../services/payments/payment-records';
import { startTestApp, testClock } from '../testing/test-app';
import { consentWithPayment, paymentEvents } from '../testing/payments';

/*
 * The payment attempt's lifecycle on the server (docs/payments.md "States"; issue 28): every
 * move checked against the one table, and each edge the payer's page must hear of.
 */

const clock = testClock('2027-03-02T10:00:00Z');
let ctx: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => {
  ctx = await startTestApp({ clock });
});
afterAll(async () => {
  await ctx.close();
});

type TConsent = Awaited<ReturnType<typeof consentWithPayment>>;

async function openTransfer(consent: TConsent) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: `/api/payments/${consent.paymentId}/transfer?consentId=${consent.consentId}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ transferDetails: { accountNumber: string; expiresAt: string } }>()
    .transferDetails;
}

async function attemptsOf(paymentId: string) {
  return ctx.database.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.paymentId, paymentId));
}

describe('moving an attempt', () => {
  it('refuses a move the table does not allow, and changes nothing', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    await openTransfer(consent);
    const [before] = await attemptsOf(consent.paymentId);
    if (!before) throw new Error('no attempt');
    clock.advance(1_000);
    // An open one-time account never waits for an OTP, nor is taken for an answer.
    for (const edge of ['askOtp', 'ask3ds', 'takeAnswer', 'fail'] as const) {
      const moved = await moveAttempt(
        ctx.database.db,
        before.id,
        edge,
        { failureCode: 'PAYMENT_FAILED', stepText: 'moved' },
        clock.now(),
      );
      expect(moved, edge).toBeNull();
    }
    expect(await attemptsOf(consent.paymentId)).toEqual([before]);
    expect(await paymentEvents(ctx.database, consent.paymentId)).toEqual([]);
  });

  it('moves along an allowed edge, and an ended attempt no further', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    await openTransfer(consent);
    const [open] = await attemptsOf(consent.paymentId);
    if (!open) throw new Error('no attempt');
    const db = ctx.database.db;
    const ended = await moveAttempt(db, open.id, 'abandon', { failureReason: 'x' }, clock.now());
    expect(ended).toMatchObject({ status: 'failed', stage: null, failureReason: 'x' });
    const [after] = await attemptsOf(consent.paymentId);
    for (const edge of ['complete', 'abandon', 'claimTransfer', 'paidOtherwise'] as const) {
      expect(await moveAttempt(db, open.id, edge, {}, clock.now()), edge).toBeNull();
    }
    expect(await attemptsOf(consent.paymentId)).toEqual([after]);
  });
});
