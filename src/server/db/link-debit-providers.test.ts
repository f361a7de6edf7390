// Migration 0073 names the debit provider of links made before it was kept, where their rows say
// who: a mandate its provider keeps (Remita's), a mandate approved at the bank's page (Paystack's
// authorisation), a link a debit already went through (that debit's provider). A link whose rows
// say nothing keeps none. Its statements after the column's are run again on such rows.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountLinks, paymentAttempts } from './schema';
import { signUp, testPhone } from '../testing/identity';
import { consentWithPayment } from '../testing/payments';
import { startTestApp, testClock } from '../testing/test-app';
import { backfillOf, oldLink as oldLinkOf } from '../testing/old-links';
import { newLinkId } from '../services/linking/link-lifecycle';

const clock = testClock(new Date());
let ctx: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => {
  ctx = await startTestApp({ clock, webhookDelivery: 'manual' });
});
afterAll(async () => {
  await ctx.close();
});

const backfill = backfillOf('0073_link_debit_providers.sql');
const oldLink = (payerId: string, link: Partial<typeof accountLinks.$inferInsert>) =>
  oldLinkOf({ database: ctx.database, clock }, payerId, link);

const debitProviderOf = async (id: string) =>
  (
    await ctx.database.db
      .select({ debitProvider: accountLinks.debitProvider })
      .from(accountLinks)
      .where(eq(accountLinks.id, id))
  )[0]?.debitProvider;

describe('migration 0073 on links made before their debit provider was kept', () => {
  it('names the provider where the rows say it, and none where they do not', async () => {
    const { user } = await signUp(ctx.app, testPhone(), 'Chiamaka Eze');
    const remita = await oldLink(user.userId, {
      route: 'auth_params',
      mandateProvider: 'remita',
      debitAuthorization: 'RM-1',
    });
    const bankPage = await oldLink(user.userId, {
      route: 'bank_page',
      debitAuthorization: 'AUTH_old',
    });
    const debited = await oldLink(user.userId, {});
    const silent = await oldLink(user.userId, {});
    const consent = await consentWithPayment(ctx.app, ctx.database);
    clock.advance(1_000);
    await ctx.database.db.insert(paymentAttempts).values({
      id: `att_${newLinkId()}`,
      paymentId: consent.paymentId,
      consentId: consent.consentId,
      method: 'account',
      amount: consent.amount,
      provider: 'paystack',
      debitAccountId: debited.accountId,
      createdAt: clock.now(),
    });
    expect(backfill).toHaveLength(3);
    for (const statement of backfill) await ctx.database.db.execute(sql.raw(statement));
    expect(await debitProviderOf(remita.id)).toBe('remita');
    expect(await debitProviderOf(bankPage.id)).toBe('paystack');
    expect(await debitProviderOf(debited.id)).toBe('paystack');
    expect(await debitProviderOf(silent.id)).toBeNull();
  });
});
