// A payment the payer skipped by their notice's link, as the merchant's dashboard shows it
// (docs/dashboard.md "Payments", docs/payer-consents.md "Told before every debit"): listed as
// skipped, found by the skipped filter and not the pending one, never paid and nothing to refund.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDashboardPaymentRow, TPaymentDetail } from '../../domain/schemas/dashboard';
import { payments } from '../db/schema';
import { listOutbox } from '../services/identity/sms-outbox';
import { runCollections } from '../services/payments/collection-runner';
import { dashboardCall, staffMember, type TStaff } from '../testing/dashboard';
import { payerWithPasskey, signedGrant } from '../testing/identity';
import { linkByTestTransfer } from '../testing/payments';
import { createTestClient, startTestApp, testClock } from '../testing/test-app';

const HOUR = 60 * 60 * 1_000;
const DAY = 24 * HOUR;

const clock = testClock('2031-05-04T09:00:00Z');
let ctx: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => {
  ctx = await startTestApp({ clock, webhookDelivery: 'manual' });
});
afterAll(async () => {
  await ctx.close();
});

/** A payer's consent to one future payment due in a day and an hour, granted; its payment. */
async function grantedFuturePayment(narration: string) {
  const payer = await payerWithPasskey(ctx.app, ctx.config);
  const accountId = await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer');
  const merchant = await createTestClient(ctx.database, { name: 'Ikoyi Lets' });
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: merchant.authorization },
    payload: {
      payments: [
        {
          type: 'future',
          amount: 250_000,
          narration,
          dueDate: new Date(clock.now().getTime() + DAY + HOUR).toISOString(),
        },
      ],
      requirements: { requiresAuth: true },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const consentId = created.json<{ consentId: string }>().consentId;
  const data = {
    originalRequestId: null,
    consentData: { consentId },
    userAuthenticated: true,
    attestDiscoveryId: null,
    futurePayments: {
      granted: true,
      selectedAccounts: [accountId],
      paymentMethods: [{ type: 'account' as const, accountId }],
    },
  };
  const granted = await ctx.app.inject({
    method: 'POST',
    url: `/api/consent/${consentId}/grant`,
    headers: payer.headers,
    payload: await signedGrant(ctx.app, payer.soft, payer.token, consentId, data),
  });
  expect(granted.statusCode, granted.body).toBe(200);
  const [payment] = await ctx.database.db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.consentId, consentId));
  return { merchantId: merchant.merchantId, paymentId: payment!.id };
}

/** The payer skips the debit named `narration` by the link of its notice SMS. */
async function skipByTheNotice(narration: string) {
  const bodies = async () =>
    (await listOutbox(ctx.database.db, { limit: 1_000 }))
      .map((sms) => sms.body)
      .filter((body) => body.includes(`for ${narration} `));
  await expect.poll(bodies).toHaveLength(1);
  const [body] = await bodies();
  const token = decodeURIComponent(/\/debits\/(\S+)$/.exec(body ?? '')?.[1] ?? '');
  const skipped = await ctx.app.inject({
    method: 'POST',
    url: `/api/debit-notices/${encodeURIComponent(token)}/skip`,
  });
  expect(skipped.statusCode, skipped.body).toBe(200);
}

async function search(staff: TStaff, query: string): Promise<TDashboardPaymentRow[]> {
  const listed = await dashboardCall(ctx, staff, {
    method: 'GET',
    url: `/api/dashboard/payments${query}`,
  });
  expect(listed.statusCode, listed.body).toBe(200);
  return listed.json<{ payments: TDashboardPaymentRow[] }>().payments;
}

describe('a skipped payment on the merchant’s dashboard', () => {
  it('is listed and shown as skipped, never paid, with nothing to refund', async () => {
    const { merchantId, paymentId } = await grantedFuturePayment('July rent');
    // The collection runner sends the payer the debit's notice, whose link skips it.
    await runCollections(ctx.context);
    await skipByTheNotice('July rent');
    // Past its date the runner leaves it: skipped, never collected.
    clock.advance(2 * DAY);
    await runCollections(ctx.context);

    const viewer = await staffMember(ctx, { merchantId, role: 'viewer' }, clock.now());
    const skippedRow = {
      paymentId,
      type: 'future',
      status: 'skipped',
      amount: 250_000,
      refunded: 0,
      narration: 'July rent',
      paidWith: null,
      executedAt: null,
    };
    expect(await search(viewer, '')).toEqual([expect.objectContaining(skippedRow)]);
    expect(await search(viewer, '?status=skipped')).toEqual([expect.objectContaining(skippedRow)]);
    expect(await search(viewer, '?status=pending')).toEqual([]);

    const detail = await dashboardCall(ctx, viewer, {
      method: 'GET',
      url: `/api/dashboard/payments/${paymentId}`,
    });
    expect(detail.statusCode, detail.body).toBe(200);
    const shown = detail.json<TPaymentDetail>();
    expect(shown.payment).toMatchObject(skippedRow);
    expect(shown.refundable).toBe(0);
    expect(shown.timeline.map((entry) => entry.kind)).not.toContain('executed');
    // The timeline says the payer was told of the debit, then that they skipped it.
    expect(shown.timeline.filter((entry) => entry.kind === 'collection')).toEqual([
      expect.objectContaining({ title: 'The payer was told of the ₦2,500.00 debit' }),
      expect.objectContaining({
        title: '₦2,500.00 skipped by the payer',
        detail: expect.stringMatching(/^Due .+\. Nothing was debited\.$/),
      }),
    ]);
  });
});
