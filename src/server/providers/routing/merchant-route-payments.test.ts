// @module-tag postgres
// A merchant's pin and pauses route its payments' new work (docs/routing.md "The merchant's
// say"), read with the payment itself (payment-records.ts): with CARD_PROVIDERS and
// TRANSFER_PROVIDERS sandbox,paystack and nothing eliminated, the card charge of a merchant that
// paused the sandbox for cards goes to Paystack and pays there, and the one-time account of one
// that pinned Paystack for transfers in is Paystack's. A capability's settings route that
// capability alone, and another merchant's payments follow the lists. On PGlite and on PostgreSQL.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TCapability } from '../../../domain/capabilities';
import { paymentAttempts, routeSettings } from '../../db/schema';
import { consentWithPayment, payByCard } from '../../testing/payments';
import {
  startPaystackSimulator,
  type TPaystackSimulator,
} from '../../testing/paystack-simulator/paystack-simulator';
import { testClock, useTestApp } from '../../testing/test-app';

const PAYSTACK_KEY = 'sk_test_merchantroutes000000000000000000';
const PAYSTACK_CARD = { number: '4084084084084081', expiry: '12/30', cvv: '408' };
const PAUSED_AT = '2026-11-28T09:15:00.000Z';
const clock = testClock(new Date());
let paystack: TPaystackSimulator;
beforeAll(async () => {
  paystack = await startPaystackSimulator({ secretKey: PAYSTACK_KEY, clock: () => clock.now() });
});
afterAll(() => paystack?.close());
const ctx = useTestApp(() => ({
  clock,
  webhookDelivery: 'manual',
  env: {
    CARD_PROVIDERS: 'sandbox,paystack',
    TRANSFER_PROVIDERS: 'sandbox,paystack',
    PAYSTACK_SECRET_KEY: PAYSTACK_KEY,
    PAYSTACK_BASE_URL: paystack.url,
  },
}));

/** The merchant's settings for one capability, as the dashboard's changes leave the row. */
async function setRoute(
  merchantId: string,
  capability: TCapability,
  settings: { pinned?: string; paused?: Record<string, string> },
) {
  await ctx.database.db.insert(routeSettings).values({
    merchantId,
    capability,
    pinned: settings.pinned ?? null,
    paused: settings.paused ?? {},
  });
}

/** The providers of the payment's attempts, oldest first. */
const attemptProviders = async (paymentId: string) =>
  (
    await ctx.database.db
      .select({ provider: paymentAttempts.provider })
      .from(paymentAttempts)
      .where(eq(paymentAttempts.paymentId, paymentId))
      .orderBy(paymentAttempts.createdAt)
  ).map((attempt) => attempt.provider);

/** Opens the payment's one-time account by the consent link: the response. */
const openAccount = (consent: { paymentId: string; consentId: string }) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/payments/${consent.paymentId}/transfer?consentId=${consent.consentId}`,
  });

describe("a merchant's route settings, read with its payment", () => {
  it('send a card charge past the paused provider, and it pays there', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    await setRoute(consent.client.merchantId, 'cards', { paused: { sandbox: PAUSED_AT } });
    const paid = await payByCard(ctx.app, consent, PAYSTACK_CARD);
    expect(paid.statusCode, paid.body).toBe(200);
    const [attempt] = await ctx.database.db
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.paymentId, consent.paymentId));
    expect(attempt).toMatchObject({ provider: 'paystack', status: 'completed' });
    expect(await attemptProviders(consent.paymentId)).toEqual(['paystack']);
  });

  it("open a transfer's account at the pinned provider", async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    await setRoute(consent.client.merchantId, 'transfersIn', { pinned: 'paystack' });
    const opened = await openAccount(consent);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(await attemptProviders(consent.paymentId)).toEqual(['paystack']);
  });

  it('route only the capability they are for, and only their merchant’s payments', async () => {
    const paused = await consentWithPayment(ctx.app, ctx.database);
    await setRoute(paused.client.merchantId, 'cards', { paused: { sandbox: PAUSED_AT } });
    expect((await openAccount(paused)).statusCode).toBe(200);
    expect(await attemptProviders(paused.paymentId)).toEqual(['sandbox']);

    const pinned = await consentWithPayment(ctx.app, ctx.database);
    await setRoute(pinned.client.merchantId, 'transfersIn', { pinned: 'paystack' });
    expect((await payByCard(ctx.app, pinned)).statusCode).toBe(200);
    expect(await attemptProviders(pinned.paymentId)).toEqual(['sandbox']);

    const byCard = await consentWithPayment(ctx.app, ctx.database);
    expect((await payByCard(ctx.app, byCard)).statusCode).toBe(200);
    expect(await attemptProviders(byCard.paymentId)).toEqual(['sandbox']);
    const byTransfer = await consentWithPayment(ctx.app, ctx.database);
    expect((await openAccount(byTransfer)).statusCode).toBe(200);
    expect(await attemptProviders(byTransfer.paymentId)).toEqual(['sandbox']);
  });
});
