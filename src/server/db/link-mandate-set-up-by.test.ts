// Migration 0074 names the provider that set up the mandate of links made before it was kept,
// where their row proves who: a mandate its provider keeps (Remita's), auth parameters answered
// with the sandbox's reference, a mandate opened at the bank's page (Paystack's). A link whose row
// proves nothing (a paper form, another provider's debits) keeps none. Its statements after the
// column's are run again on such rows.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountLinks } from './schema';
import { signUp, testPhone } from '../testing/identity';
import { accountLinkRow } from '../testing/payments';
import { startTestApp, testClock } from '../testing/test-app';
import { newLinkId } from '../services/linking/link-lifecycle';
import { backfillOf, oldLink as oldLinkOf } from '../testing/old-links';

const clock = testClock(new Date());
let ctx: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => {
  ctx = await startTestApp({ clock, webhookDelivery: 'manual' });
});
afterAll(async () => {
  await ctx.close();
});

const backfill = backfillOf('0074_link_mandate_set_up_by.sql');
/** A link waiting for its auth parameters' answers, unless `link` says otherwise. */
const oldLink = async (payerId: string, link: Partial<typeof accountLinks.$inferInsert>) =>
  (
    await oldLinkOf({ database: ctx.database, clock }, payerId, {
      route: 'auth_params',
      state: 'awaiting_authorisation',
      activatedAt: null,
      ...link,
    })
  ).id;

const setUpByOf = async (id: string) => (await accountLinkRow(ctx.database, id))?.mandateSetUpBy;

describe('migration 0074 on links made before who set their mandate up was kept', () => {
  it('names the provider where the row proves it, and none where it does not', async () => {
    const { user } = await signUp(ctx.app, testPhone(), 'Chiamaka Eze');
    const reference = () => newLinkId();
    const remita = await oldLink(user.userId, {
      route: 'paper',
      mandateProvider: 'remita',
      providerReference: `RM-${reference()}`,
    });
    const sandbox = await oldLink(user.userId, { remitaTransRef: `sbx_rrr_${reference()}` });
    const bankPage = await oldLink(user.userId, {
      route: 'bank_page',
      providerReference: `PSTK_${reference()}`,
    });
    const otherReference = await oldLink(user.userId, { remitaTransRef: `sbxArrr_${reference()}` });
    const paper = await oldLink(user.userId, { route: 'paper' });
    const debited = await oldLink(user.userId, {
      route: 'test_transfer',
      debitProvider: 'paystack',
    });
    expect(backfill).toHaveLength(3);
    for (const statement of backfill) await ctx.database.db.execute(sql.raw(statement));
    expect(await setUpByOf(remita)).toBe('remita');
    expect(await setUpByOf(sandbox)).toBe('sandbox');
    expect(await setUpByOf(bankPage)).toBe('paystack');
    expect(await setUpByOf(otherReference)).toBeNull();
    expect(await setUpByOf(paper)).toBeNull();
    expect(await setUpByOf(debited)).toBeNull();
  });
});
