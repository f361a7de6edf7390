// Migration 0073 names the debit provider of links made before it was kept, where their rows say
// who: a mandate its provider keeps (Remita's), a mandate approved at the bank's page (Paystack's
// authorisation), a link a debit already went through (that debit's provider). A link whose rows
// say nothing keeps none. Its statements after the column's are run again on such rows.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountLinks, payerAccounts, paymentAttempts } from './schema';
import { signUp, testPhone } from '../testing/identity';
import { consentWithPayment } from '../testing/payments';
import { startTestApp, testClock } from '../testing/test-app';
import { newLinkId } from '../services/linking/link-lifecycle';

const clock = testClock(new Date());
let ctx: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => {
  ctx = await startTestApp({ clock, webhookDelivery: 'manual' });
});
afterAll(async () => {
  await ctx.close();
});

/** Migration 0073's statements that fill the column, as the file has them. */
const backfill = readFileSync(
  fileURLToPath(new URL('./migrations/0073_link_debit_providers.sql', import.meta.url)),
  'utf8',
)
  .split('--> statement-breakpoint')
  .filter((statement) => statement.trim().startsWith('UPDATE'));

/** A payer's account and its active link as `link` has it, naming no debit provider. */
async function oldLink(payerId: string, link: Partial<typeof accountLinks.$inferInsert>) {
  const now = clock.now();
  const accountId = `pa_${newLinkId()}`;
  await ctx.database.db.insert(payerAccounts).values({
    id: accountId,
    payerId,
    institutionCode: '058',
    accountNumber: String(Math.floor(Math.random() * 1e10)).padStart(10, '0'),
    accountName: 'CHIAMAKA EZE',
    bankName: 'Guaranty Trust Bank',
    createdAt: now,
  });
  const id = newLinkId();
  await ctx.database.db.insert(accountLinks).values({
    id,
    payerId,
    accountId,
    route: 'test_transfer',
    state: 'active',
    expiresAt: now,
    activatedAt: now,
    createdAt: now,
    updatedAt: now,
    ...link,
  });
  return { id, accountId };
}

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
