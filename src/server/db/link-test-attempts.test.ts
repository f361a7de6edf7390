// Migration 0076 makes a card link's test charge an attempt of its own (purpose 'link_test', its
// id the link's), where it was a stage, a provider and a settled time on its link. Its INSERT and
// UPDATE are run again here on links written as the columns it drops kept them (put back for the
// test): each charge lands in the state and give-back that tell the same story, and the check of
// the table holds a link's charge to its link and a payment's attempt to its payment.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accountLinks, paymentAttempts } from './schema';
import { newLinkId } from '../services/linking/link-lifecycle';
import { book, ledgerAccount } from '../services/payments/ledger';
import { signUp, testPhone } from '../testing/identity';
import { consentWithPayment } from '../testing/payments';
import { backfillOf, oldLink } from '../testing/old-links';
import { testClock, useTestApp } from '../testing/test-app';

const clock = testClock(new Date());
const ctx = useTestApp({ clock, webhookDelivery: 'manual' });

/** The migration's statements that move data (INSERT, UPDATE), its comments left out. */
const moves = backfillOf('0076_link_test_attempts.sql', ['INSERT', 'UPDATE']);

type TOldCharge = {
  state: 'created' | 'active' | 'cancelled';
  stage: 'charging' | 'awaiting_otp' | 'awaiting_3ds' | null;
  settled: boolean;
  booked: ('link_test_charge' | 'test_charge_refund')[];
  providerReference?: string;
};

describe('migration 0076 on card links made before their test charge was an attempt', () => {
  it("moves each link's test charge to an attempt in the state its columns told", async () => {
    const db = ctx.database.db;
    // The columns the migration drops, as they were.
    await db.execute(
      sql.raw(`ALTER TABLE "account_links" ADD COLUMN "charge_stage" text,
        ADD COLUMN "charge_provider" text, ADD COLUMN "charge_settled_at" timestamp with time zone`),
    );
    const { user } = await signUp(ctx.app, testPhone(), 'Chiamaka Eze');
    const now = clock.now();
    const link = async (old: TOldCharge) => {
      const { id } = await oldLink({ database: ctx.database, clock }, user.userId, {
        route: 'card',
        state: old.state,
        testAmount: 512,
        providerReference: old.providerReference ?? null,
        cardExpiryMonth: 12,
        cardExpiryYear: 2030,
        expiresAt: new Date(now.getTime() + 60_000),
        activatedAt: old.state === 'active' ? now : null,
      });
      await db.execute(sql`UPDATE "account_links" SET "charge_stage" = ${old.stage},
        "charge_provider" = 'paystack',
        "charge_settled_at" = ${old.settled ? now.toISOString() : null}::timestamptz
        WHERE "id" = ${id}`);
      const card = ledgerAccount.payerSource('card');
      const held = ledgerAccount.linkTestCharges();
      for (const kind of old.booked) {
        const sign = kind === 'link_test_charge' ? 1 : -1;
        await book(db, {
          reference: id,
          paymentId: null,
          attemptId: null,
          kind,
          narration: kind,
          entries: [
            { account: card, amount: -512 * sign },
            { account: held, amount: 512 * sign },
          ],
        });
      }
      return id;
    };
    const waiting = await link({
      state: 'created',
      stage: 'awaiting_otp',
      settled: false,
      booked: [],
      providerReference: 'PSK-otp-1',
    });
    const lost = await link({ state: 'cancelled', stage: null, settled: false, booked: [] });
    const owed = await link({
      state: 'cancelled',
      stage: null,
      settled: false,
      booked: ['link_test_charge'],
    });
    const linked = await link({
      state: 'active',
      stage: null,
      settled: true,
      booked: ['link_test_charge', 'test_charge_refund'],
    });
    const refused = await link({ state: 'cancelled', stage: null, settled: true, booked: [] });
    expect(moves).toHaveLength(2);
    for (const statement of moves) await db.execute(sql.raw(statement));

    const chargeOf = async (id: string) => {
      const [row] = await db.select().from(paymentAttempts).where(eq(paymentAttempts.id, id));
      return row;
    };
    const common = {
      purpose: 'link_test',
      paymentId: null,
      consentId: null,
      method: 'card',
      amount: 512,
      payerId: user.userId,
      provider: 'paystack',
    };
    expect(await chargeOf(waiting)).toMatchObject({
      ...common,
      linkId: waiting,
      status: 'in_progress',
      stage: 'awaiting_otp',
      providerReference: 'PSK-otp-1',
      refund: null,
    });
    expect(await chargeOf(lost)).toMatchObject({ status: 'in_progress', stage: 'charging' });
    expect(await chargeOf(owed)).toMatchObject({ status: 'completed', refund: 'owed' });
    expect(await chargeOf(linked)).toMatchObject({ status: 'completed', refund: 'settled' });
    expect(await chargeOf(refused)).toMatchObject({ status: 'failed', stage: null, refund: null });
    // The network's reference is the charge's now.
    const [kept] = await db
      .select({ providerReference: accountLinks.providerReference })
      .from(accountLinks)
      .where(eq(accountLinks.id, waiting));
    expect(kept?.providerReference).toBeNull();
    // Given back as the reconciler would: the books balance at the end of the test.
    await book(db, {
      reference: owed,
      paymentId: null,
      attemptId: null,
      kind: 'test_charge_refund',
      narration: 'test_charge_refund',
      entries: [
        { account: ledgerAccount.linkTestCharges(), amount: -512 },
        { account: ledgerAccount.payerSource('card'), amount: 512 },
      ],
    });
  });

  it("holds a link's test charge to its link, and a payment's attempt to its payment", async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const now = new Date();
    const attempt = (row: Partial<typeof paymentAttempts.$inferInsert>) =>
      ctx.database.db.insert(paymentAttempts).values({
        id: `att_${newLinkId()}`,
        method: 'card',
        status: 'in_progress',
        stage: 'charging',
        amount: 100,
        provider: 'sandbox',
        createdAt: now,
        updatedAt: now,
        ...row,
      });
    // The check's name, on the database's error (the query's error carries it as its cause).
    const owner = {
      cause: expect.objectContaining({ constraint: 'payment_attempts_purpose_owner' }),
    };
    await expect(attempt({ purpose: 'payment' })).rejects.toMatchObject(owner);
    await expect(attempt({ purpose: 'link_test' })).rejects.toMatchObject(owner);
    await expect(
      attempt({ purpose: 'link_test', paymentId: consent.paymentId, consentId: consent.consentId }),
    ).rejects.toMatchObject(owner);
    // A payment's attempt with its payment and consent is taken.
    await expect(
      attempt({ purpose: 'payment', paymentId: consent.paymentId, consentId: consent.consentId }),
    ).resolves.toBeDefined();
  });
});
