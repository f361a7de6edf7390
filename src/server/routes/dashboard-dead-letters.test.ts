// The Developers screen's dead letters (docs/dashboard.md "Developers", docs/jobs.md): a webhook
// delivery whose job failed every retry is listed for its merchant, and for no other, as the
// operator's /api/health/ready counts it.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TDashboardDeadLetter } from '../../domain/schemas/dashboard';
import type { TReadyResponse } from '../../domain/schemas/health';
import { webhookEndpoints } from '../db/schema';
import { JOBS_SCHEMA } from '../jobs/engine';
import { recordMerchantEvent } from '../services/change-records';
import { WEBHOOK_DELIVER_JOB } from '../services/merchants/webhooks';
import { dashboardCall, staffMember, type TStaffSession } from '../testing/dashboard';
import { consentWithPayment } from '../testing/payments';
import { testClock, useTestApp } from '../testing/test-app';

const clock = testClock(new Date());

// The endpoints are on this machine: their deliveries get as far as signing.
const ctx = useTestApp({
  clock,
  webhookDelivery: 'manual',
  env: { WEBHOOKS_ALLOW_PRIVATE: 'on' },
});

/**
 * A merchant whose webhook's signing secret cannot be unsealed (a broken row: every try of its
 * deliveries throws), with one payment's event queued for it.
 */
async function merchantWithBrokenWebhook() {
  const consent = await consentWithPayment(ctx.app, ctx.database);
  const registered = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers: { authorization: consent.client.authorization },
    payload: { url: 'http://127.0.0.1:9/hooks' },
  });
  expect(registered.statusCode, registered.body).toBe(201);
  const { id } = registered.json<{ id: string }>();
  await ctx.database.db
    .update(webhookEndpoints)
    .set({ secretSealed: 'not-sealed' })
    .where(eq(webhookEndpoints.id, id));
  const eventId = await ctx.database.db.transaction((tx) =>
    recordMerchantEvent(ctx.app.jobs, tx, {
      clientId: consent.client.clientId,
      consentId: consent.consentId,
      type: 'payment.completed',
      data: {
        consentId: consent.consentId,
        paymentId: consent.paymentId,
        amount: consent.amount,
        method: 'card',
        executedAt: clock.now().toISOString(),
      },
      now: clock.now(),
    }),
  );
  return { consent, eventId };
}

/** A member of the consent's merchant, signed in now. */
const memberOf = (
  { consent }: { consent: { client: { merchantId: string } } },
  role: 'owner' | 'support',
) => staffMember(ctx, { merchantId: consent.client.merchantId, role }, clock.now());

/** Tries every delivery job once more, as its backoff and the delivery's lease had passed. */
async function tryAgain() {
  clock.advance(3 * 60_000);
  await ctx.database.db.execute(
    sql`update ${sql.raw(JOBS_SCHEMA)}.job set start_after = now()
        where name = ${WEBHOOK_DELIVER_JOB} and state = 'retry'`,
  );
  await ctx.app.jobs.drain([WEBHOOK_DELIVER_JOB]);
}

const deadLetters = async (staff: TStaffSession) => {
  const answer = await dashboardCall(ctx, staff, {
    method: 'GET',
    url: '/api/dashboard/webhooks/dead-letters',
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ deadLetters: TDashboardDeadLetter[] }>().deadLetters;
};

describe('GET /api/dashboard/webhooks/dead-letters', { tags: ['postgres'] }, () => {
  it('lists the merchant’s own deliveries whose job failed every retry, as readiness counts them', async () => {
    const first = await merchantWithBrokenWebhook();
    const second = await merchantWithBrokenWebhook();
    // The first try and ten retries (webhooks.deliver's limit), each failing.
    for (let tries = 0; tries < 11; tries += 1) await tryAgain();

    const ready = await ctx.app.inject({ method: 'GET', url: '/api/health/ready' });
    const report = ready.json<TReadyResponse>();
    expect(report.jobs.find((kind) => kind.kind === WEBHOOK_DELIVER_JOB)?.dead).toBe(2);
    expect(report.failingKinds).toContain(WEBHOOK_DELIVER_JOB);

    const listed = await deadLetters(await memberOf(first, 'owner'));
    expect(listed).toEqual([
      {
        deliveryId: expect.any(Number),
        eventId: first.eventId,
        eventType: 'payment.completed',
        url: 'http://127.0.0.1:9/hooks',
        tries: 11,
        deadSince: expect.any(String),
        status: 'pending',
      },
    ]);
    expect(
      (await deadLetters(await memberOf(second, 'owner'))).map((dead) => dead.eventId),
    ).toEqual([second.eventId]);
    // A member whose role does not manage webhooks does not see them.
    const support = await memberOf(first, 'support');
    const refused = await dashboardCall(ctx, support, {
      method: 'GET',
      url: '/api/dashboard/webhooks/dead-letters',
    });
    expect(refused.statusCode).toBe(403);
  });
});
