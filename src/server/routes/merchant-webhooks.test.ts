// Webhooks (docs/webhooks.md) against a real local receiver (WEBHOOKS_ALLOW_PRIVATE=on): every
// outcome is signed, carries an event id, reaches the receiver in order per consent, and survives
// a receiver that is down, slow or failing, with retries on the (test) clock for three days; a
// redirect is not followed, the receiver's answer is not echoed, and the connection goes to the
// address that was checked.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { THostResolver } from '../providers/host-resolver';
import { testHostResolver } from '../testing/host-resolver';
import {
  grantPaidConsent,
  receiver,
  registerWebhook,
  type TReceived,
} from '../testing/webhook-receiver';
import { createTestClient, startTestApp, testClock } from '../testing/test-app';
import { consentWithPayment, payByCard } from '../testing/payments';
import { WEBHOOK_BODY_KEPT } from '../services/merchants/webhook-targets';
import {
  WEBHOOK_FIRST_RETRY_MS,
  WEBHOOK_RETRY_WINDOW_MS,
  webhookDeliverer,
  type TWebhookDeliverer,
} from '../services/merchants/webhooks';
import { WEBHOOK_SECRET_OVERLAP_MS } from '../services/merchants/webhook-signing';
import { recordMerchantEvent } from '../services/change-records';

const clock = testClock('2026-11-23T10:00:00Z');
const dns = testHostResolver();
let ctx: Awaited<ReturnType<typeof startTestApp>>;
let deliverer: TWebhookDeliverer;
beforeAll(async () => {
  // The receivers are on this machine, over http: the operator's flag lets webhooks go there
  // (merchant-webhook-targets.test.ts holds the default, which refuses them).
  ctx = await startTestApp({
    clock,
    webhookDelivery: 'manual',
    env: { WEBHOOKS_ALLOW_PRIVATE: 'on' },
    providers: { dns },
  });
  // A receiver on this machine answers within this however loaded the machine (one that hangs
  // is given a deliverer of its own, below).
  deliverer = webhookDeliverer(ctx.context, { timeoutMs: 30_000 });
});
afterAll(async () => {
  await ctx.close();
});

async function deliveries(authorization: string) {
  const response = await ctx.app.inject({
    method: 'GET',
    url: '/api/v1/webhooks/deliveries',
    headers: { authorization },
  });
  expect(response.statusCode).toBe(200);
  return response.json<{
    deliveries: Array<{
      id: number;
      status: string;
      attempts: number;
      eventType: string;
      lastStatus: number | null;
      lastBody: string | null;
      lastError: string | null;
    }>;
  }>().deliveries;
}

const typeOf = (r: TReceived) => (JSON.parse(r.body) as { type: string }).type;

/**
 * What a merchant's receiver does with the reference verifier (the `standardwebhooks` package),
 * its clock set to the test clock's (it refuses a timestamp 5 minutes from its own).
 */
function verify(secret: string, got: TReceived | undefined): unknown {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(clock.now());
  try {
    return new Webhook(secret).verify(got?.body ?? '', got?.headers as Record<string, string>);
  } finally {
    vi.useRealTimers();
  }
}

async function endpoints(authorization: string) {
  const response = await ctx.app.inject({
    method: 'GET',
    url: '/api/v1/webhooks',
    headers: { authorization },
  });
  expect(response.statusCode).toBe(200);
  return response.json<{
    webhooks: Array<{ id: string; status: string; disabledAt: string | null }>;
  }>().webhooks;
}

async function rotate(authorization: string, webhookId: string, idempotencyKey?: string) {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v1/webhooks/${webhookId}/rotate-secret`,
    headers: { authorization, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
  });
}

describe('webhooks', () => {
  it('delivers a paid payment signed as Standard Webhooks, which the standardwebhooks package verifies', async () => {
    const hook = receiver();
    const url = await hook.listen();
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const { secret } = await registerWebhook(ctx.app, consent.client.authorization, url);
    // whsec_ and the base64 of 24 random bytes.
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect((await payByCard(ctx.app, consent)).statusCode).toBe(200);

    await deliverer.runDue();
    // A consent asking only for the payment is granted by it: the merchant hears both.
    expect(hook.received.map(typeOf)).toEqual(['payment.completed', 'consent.granted']);
    const [got] = hook.received;
    const payload = JSON.parse(got?.body ?? '{}') as { id: string; data: Record<string, unknown> };
    expect(payload.data).toMatchObject({ paymentId: consent.paymentId, amount: consent.amount });
    expect(got?.headers['webhook-id']).toBe(payload.id);
    expect(got?.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(got?.headers['oya-signature']).toBeUndefined();
    // The receiver's check, as docs/webhooks.md and examples/webhook-receiver.mjs make it.
    expect(verify(secret, got)).toEqual(payload);
    expect(() => verify(`whsec_${Buffer.alloc(24, 7).toString('base64')}`, got)).toThrow(
      'No matching signature found',
    );
    // A delivery's timestamp is its try's: five minutes on, a receiver refuses it as a replay.
    clock.advance(6 * 60_000);
    expect(() => verify(secret, got)).toThrow('Message timestamp too old');
    const sent = await deliveries(consent.client.authorization);
    expect(
      sent.find((d: { eventType: string }) => d.eventType === 'payment.completed'),
    ).toMatchObject({
      status: 'delivered',
      attempts: 1,
      eventType: 'payment.completed',
    });
    await hook.close();
  });

  it('retries a receiver that answers 500 with backoff, and delivers once it answers 200', async () => {
    const hook = receiver();
    const url = await hook.listen();
    const consent = await consentWithPayment(ctx.app, ctx.database);
    await registerWebhook(ctx.app, consent.client.authorization, url);
    hook.answerWith(() => ({ status: 500 }));
    await payByCard(ctx.app, consent, 'declined');
    await deliverer.runDue();
    expect(hook.received.map(typeOf)).toEqual(['payment.failed']);
    // Not due again before its backoff.
    clock.advance(WEBHOOK_FIRST_RETRY_MS - 1_000);
    await deliverer.runDue();
    expect(hook.received).toHaveLength(1);
    hook.answerWith(() => ({ status: 200 }));
    clock.advance(2_000);
    await deliverer.runDue();
    expect(hook.received).toHaveLength(2);
    // The same event both times: a receiver keys on its id.
    expect(hook.received[0]?.headers['webhook-id']).toBe(hook.received[1]?.headers['webhook-id']);
    expect((await deliveries(consent.client.authorization))[0]).toMatchObject({
      status: 'delivered',
      attempts: 2,
    });
    await hook.close();
  });

  it('loses nothing while the receiver is down for an hour, and keeps each consent in order', async () => {
    // A port nobody listens on yet: the receiver comes up there later.
    const probe = receiver();
    const url = await probe.listen();
    await probe.close();
    const consent = await consentWithPayment(ctx.app, ctx.database);
    await registerWebhook(ctx.app, consent.client.authorization, url);
    await payByCard(ctx.app, consent);
    const granted = await grantPaidConsent(ctx.app, consent.consentId);
    expect(granted.statusCode).toBe(200);

    for (let minute = 0; minute < 60; minute += 5) {
      await deliverer.runDue();
      clock.advance(5 * 60_000);
    }
    const pending = await deliveries(consent.client.authorization);
    expect(pending.map((d) => d.status)).toEqual(['pending', 'pending']);
    // consent.granted waited behind payment.completed: it was never tried.
    expect(pending.find((d) => d.eventType === 'consent.granted')?.attempts).toBe(0);

    const hook = receiver(Number(new URL(url).port));
    await hook.listen();
    clock.advance(6 * 60 * 60_000);
    await deliverer.runDue();
    await deliverer.runDue();
    expect(hook.received.map(typeOf)).toEqual(['payment.completed', 'consent.granted']);
    await hook.close();
  });

  it('counts a slow receiver as failed and sends again; gives up after three days', async () => {
    const hook = receiver();
    const url = await hook.listen();
    const consent = await consentWithPayment(ctx.app, ctx.database);
    await registerWebhook(ctx.app, consent.client.authorization, url);
    hook.answerWith(() => ({ status: 200, hangs: true }));
    await payByCard(ctx.app, consent, 'insufficient_funds');
    const impatient = webhookDeliverer(ctx.context, { timeoutMs: 300 });
    await impatient.runDue();
    const [slow] = await deliveries(consent.client.authorization);
    expect(slow).toMatchObject({ status: 'pending', attempts: 1 });

    for (let hour = 0; hour < 80; hour += 1) {
      clock.advance(60 * 60_000);
      await impatient.runDue();
    }
    const [ended] = await deliveries(consent.client.authorization);
    expect(ended?.status).toBe('failed');

    // Resent by the merchant once the receiver is fixed.
    hook.answerWith(() => ({ status: 204 }));
    const resend = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/webhooks/deliveries/${ended?.id}/resend`,
      headers: { authorization: consent.client.authorization },
    });
    expect(resend.statusCode).toBe(200);
    await deliverer.runDue();
    expect((await deliveries(consent.client.authorization))[0]?.status).toBe('delivered');
    await hook.close();
  });

  it('does not follow a redirect: a 3xx is a failed try, and where it points hears nothing', async () => {
    const elsewhere = receiver();
    const elsewhereUrl = await elsewhere.listen();
    const hook = receiver();
    const url = await hook.listen();
    hook.answerWith(() => ({ status: 307, headers: { location: elsewhereUrl } }));
    // It asks for future payments too, so paying it sends one event, the payment's.
    const consent = await consentWithPayment(ctx.app, ctx.database, { future: true });
    await registerWebhook(ctx.app, consent.client.authorization, url);
    await payByCard(ctx.app, consent);
    await deliverer.runDue();
    expect(hook.received).toHaveLength(1);
    expect(elsewhere.received).toEqual([]);
    expect((await deliveries(consent.client.authorization))[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatus: 307,
      lastError: 'answered 307; redirects are not followed',
    });
    await hook.close();
    await elsewhere.close();
  });

  it("keeps the status of an answer, a short outcome and the start of its body, never the receiver's headers", async () => {
    const hook = receiver();
    const url = await hook.listen();
    const inside = 'postgres://admin:hunter2@10.0.0.5:5432/payments';
    hook.answerWith(() => ({
      status: 500,
      headers: { 'x-upstream': inside, 'content-type': 'text/plain' },
      body: `Internal error: ${inside}`,
    }));
    // It asks for future payments too, so paying it sends one event, the payment's.
    const consent = await consentWithPayment(ctx.app, ctx.database, { future: true });
    await registerWebhook(ctx.app, consent.client.authorization, url);
    await payByCard(ctx.app, consent);
    await deliverer.runDue();
    hook.answerWith(() => ({ status: 200, body: `stored; ${inside}` }));
    clock.advance(WEBHOOK_FIRST_RETRY_MS);
    await deliverer.runDue();
    const listed = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/webhooks/deliveries',
      headers: { authorization: consent.client.authorization },
    });
    expect(listed.body).not.toContain('x-upstream');
    expect(listed.json().deliveries).toEqual([
      expect.objectContaining({
        status: 'delivered',
        attempts: 2,
        lastStatus: 200,
        lastError: null,
        lastBody: `stored; ${inside}`,
      }),
    ]);
    // Of a long answer, its first WEBHOOK_BODY_KEPT bytes; a NUL, which PostgreSQL's text
    // refuses, is left out.
    hook.answerWith(() => ({ status: 400, body: `\u0000${'x'.repeat(WEBHOOK_BODY_KEPT * 4)}` }));
    const again = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/webhooks/deliveries/${listed.json<{ deliveries: Array<{ id: number }> }>().deliveries[0]?.id}/resend`,
      headers: { authorization: consent.client.authorization },
    });
    expect(again.statusCode, again.body).toBe(200);
    await deliverer.runDue();
    const [last] = await deliveries(consent.client.authorization);
    expect(last?.lastBody).toBe('x'.repeat(WEBHOOK_BODY_KEPT - 1));
    await hook.close();
  });

  it('connects to the address it checked, not to what a second DNS answer would say', async () => {
    const checked = receiver();
    const checkedUrl = await checked.listen();
    const port = Number(new URL(checkedUrl).port);
    // The same port on another loopback address: where a second lookup would lead.
    const swapped = receiver(port, '127.0.0.2');
    await swapped.listen();
    dns.answer('pinned.shop.example', ['127.0.0.1']);
    // It asks for future payments too, so paying it sends one event, the payment's.
    const consent = await consentWithPayment(ctx.app, ctx.database, { future: true });
    await registerWebhook(
      ctx.app,
      consent.client.authorization,
      `http://pinned.shop.example:${port}/hooks`,
    );
    await payByCard(ctx.app, consent);
    // The delivery's check hears 127.0.0.1; any later question would hear 127.0.0.2.
    let asked = 0;
    const flipping: THostResolver = async () => [
      { address: (asked += 1) === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 },
    ];
    const pinned = webhookDeliverer(
      { ...ctx.context, clock, providers: { ...ctx.context.providers, dns: flipping } },
      { timeoutMs: 30_000 },
    );
    await pinned.runDue();
    expect(checked.received.map(typeOf)).toEqual(['payment.completed']);
    expect(swapped.received).toEqual([]);
    expect(asked).toBe(1);
    await checked.close();
    await swapped.close();
  });

  it("refuses another merchant's deliveries and a URL that is not http(s), naming the field", async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const other = await consentWithPayment(ctx.app, ctx.database);
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { authorization: consent.client.authorization },
      payload: { url: 'ftp://example.com/hooks' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: { message: string } }>().error.message).toMatch(/url/);

    const hook = receiver();
    await registerWebhook(ctx.app, other.client.authorization, await hook.listen());
    await payByCard(ctx.app, other);
    await deliverer.runDue();
    const theirs = (await deliveries(other.client.authorization))[0];
    const resend = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/webhooks/deliveries/${theirs?.id}/resend`,
      headers: { authorization: consent.client.authorization },
    });
    expect(resend.statusCode).toBe(404);
    expect(await deliveries(consent.client.authorization)).toEqual([]);
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/v1/webhooks' });
    expect(anonymous.statusCode).toBe(401);
    await hook.close();
  });
});

describe('rotating a webhook secret', () => {
  it('signs with the old and the new secret during the overlap, and with the new alone after it; what was owed is delivered', async () => {
    const hook = receiver();
    const url = await hook.listen();
    // It asks for future payments too, so paying it sends one event, the payment's.
    const consent = await consentWithPayment(ctx.app, ctx.database, { future: true });
    const { authorization } = consent.client;
    const { id, secret: old } = await registerWebhook(ctx.app, authorization, url);
    hook.answerWith(() => ({ status: 500 }));
    await payByCard(ctx.app, consent);
    await deliverer.runDue();
    expect(hook.received).toHaveLength(1);

    // Owed a delivery, the endpoint gets a new secret.
    const first = await rotate(authorization, id, 'rotate-after-leak');
    expect(first.statusCode).toBe(201);
    const rotated = first.json<{ id: string; secret: string; previousSecretValidUntil: string }>();
    expect(rotated.id).toBe(id);
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(rotated.secret).not.toBe(old);
    expect(rotated.previousSecretValidUntil).toBe(
      new Date(clock.now().getTime() + WEBHOOK_SECRET_OVERLAP_MS).toISOString(),
    );
    // Its answer lost, the call is retried with its key: the same secret, nothing rotated again.
    const retried = await rotate(authorization, id, 'rotate-after-leak');
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual(first.json());

    hook.answerWith(() => ({ status: 200 }));
    clock.advance(WEBHOOK_FIRST_RETRY_MS);
    await deliverer.runDue();
    const owed = hook.received[1];
    expect(owed && typeOf(owed)).toBe('payment.completed');
    expect(String(owed?.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(old, owed)).toMatchObject({ type: 'payment.completed' });
    expect(verify(rotated.secret, owed)).toMatchObject({ type: 'payment.completed' });

    // Once the overlap is over, a delivery (here resent) is signed with the new secret alone.
    clock.advance(WEBHOOK_SECRET_OVERLAP_MS);
    const [delivered] = await deliveries(authorization);
    const resend = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/webhooks/deliveries/${delivered?.id}/resend`,
      headers: { authorization },
    });
    expect(resend.statusCode).toBe(200);
    await deliverer.runDue();
    const after = hook.received[2];
    expect(String(after?.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(rotated.secret, after)).toMatchObject({ type: 'payment.completed' });
    expect(() => verify(old, after)).toThrow('No matching signature found');
    await hook.close();
  });

  it('keeps every secret of a retried rotation signing, at most four earlier ones, and only for the owner', async () => {
    const hook = receiver();
    const url = await hook.listen();
    const consent = await consentWithPayment(ctx.app, ctx.database, { future: true });
    const { authorization } = consent.client;
    const { id, secret: original } = await registerWebhook(ctx.app, authorization, url);
    // Rotations with no key (a retry whose answer was lost among them) do not end the overlap
    // of a secret the receiver may still hold.
    const secrets = [original];
    for (let n = 0; n < 4; n += 1) {
      const rotated = await rotate(authorization, id);
      expect(rotated.statusCode).toBe(201);
      secrets.push(rotated.json<{ secret: string }>().secret);
    }
    const fifth = await rotate(authorization, id);
    expect(fifth.statusCode).toBe(409);
    expect(fifth.json().error.code).toBe('WEBHOOK_SECRETS_OVERLAPPING');

    await payByCard(ctx.app, consent);
    await deliverer.runDue();
    const [got] = hook.received;
    expect(String(got?.headers['webhook-signature']).split(' ')).toHaveLength(5);
    for (const secret of secrets)
      expect(verify(secret, got)).toMatchObject({ id: expect.any(String) });

    const other = await createTestClient(ctx.database, { name: 'Other Shop' });
    const theirs = await rotate(other.authorization, id);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().error.code).toBe('NOT_FOUND');
    await hook.close();
  });
});

describe('a receiver that answers 410 Gone or Retry-After', () => {
  it('disables an endpoint answering 410 Gone: what it is owed fails, nothing is sent until it is enabled', async () => {
    const hook = receiver();
    const url = await hook.listen();
    hook.answerWith(() => ({ status: 410 }));
    // payment.completed, then consent.granted waiting behind it.
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const { authorization } = consent.client;
    const { id } = await registerWebhook(ctx.app, authorization, url);
    await payByCard(ctx.app, consent);
    await deliverer.runDue();
    expect(hook.received.map(typeOf)).toEqual(['payment.completed']);

    expect(await endpoints(authorization)).toEqual([
      expect.objectContaining({ id, status: 'disabled', disabledAt: clock.now().toISOString() }),
    ]);
    const failed = await deliveries(authorization);
    expect(failed.find((d) => d.eventType === 'payment.completed')).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastStatus: 410,
      lastError: 'answered 410 Gone; the webhook is disabled',
    });
    expect(failed.find((d) => d.eventType === 'consent.granted')).toMatchObject({
      status: 'failed',
      attempts: 0,
      lastError: 'not sent: the webhook is disabled (it answered 410 Gone)',
    });
    // An event while it is disabled gets its delivery failed at once; nothing is sent.
    await ctx.database.db.transaction((tx) =>
      recordMerchantEvent(ctx.app.jobs, tx, {
        clientId: consent.client.clientId,
        consentId: consent.consentId,
        type: 'consent.revoked',
        // As the revocation writes it (the test app checks every event against the OpenAPI
        // document's webhooks).
        data: {
          consentId: consent.consentId,
          revokedAt: clock.now().toISOString(),
          cancelledPaymentIds: [],
        },
        now: clock.now(),
      }),
    );
    expect((await deliveries(authorization))[0]).toMatchObject({
      eventType: 'consent.revoked',
      status: 'failed',
      attempts: 0,
      lastError: 'not sent: the webhook is disabled (it answered 410 Gone)',
    });
    clock.advance(60 * 60_000);
    await deliverer.runDue();
    expect(hook.received).toHaveLength(1);

    const resend = (deliveryId: number | undefined) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/v1/webhooks/deliveries/${deliveryId}/resend`,
        headers: { authorization },
      });
    const refused = await resend(failed[0]?.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('WEBHOOK_DISABLED');

    const enabled = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/webhooks/${id}/enable`,
      headers: { authorization },
    });
    expect(enabled.statusCode).toBe(200);
    expect((await endpoints(authorization))[0]).toMatchObject({
      status: 'active',
      disabledAt: null,
    });
    hook.answerWith(() => ({ status: 200 }));
    for (const delivery of [...failed].reverse())
      expect((await resend(delivery.id)).statusCode).toBe(200);
    await deliverer.runDue();
    await deliverer.runDue();
    expect(hook.received.map(typeOf)).toEqual([
      'payment.completed',
      'payment.completed',
      'consent.granted',
    ]);
    await hook.close();
  });

  it('waits as long as a 503 Retry-After in seconds asks, when that is longer than the backoff', async () => {
    const hook = receiver();
    const url = await hook.listen();
    hook.answerWith(() => ({ status: 503, headers: { 'retry-after': '3600' } }));
    const consent = await consentWithPayment(ctx.app, ctx.database, { future: true });
    await registerWebhook(ctx.app, consent.client.authorization, url);
    await payByCard(ctx.app, consent);
    await deliverer.runDue();
    hook.answerWith(() => ({ status: 200 }));
    // The backoff alone would try again after 30 s.
    clock.advance(3_599_000);
    await deliverer.runDue();
    expect(hook.received).toHaveLength(1);
    clock.advance(2_000);
    await deliverer.runDue();
    expect(hook.received).toHaveLength(2);
    expect((await deliveries(consent.client.authorization))[0]).toMatchObject({
      status: 'delivered',
      attempts: 2,
    });
    await hook.close();
  });

  it('reads a 429 Retry-After given as an HTTP date, and gives up when it asks past the three days', async () => {
    const hook = receiver();
    const url = await hook.listen();
    const at = () => new Date(clock.now().getTime() + 2 * 60 * 60_000).toUTCString();
    hook.answerWith(() => ({ status: 429, headers: { 'retry-after': at() } }));
    const consent = await consentWithPayment(ctx.app, ctx.database, { future: true });
    await registerWebhook(ctx.app, consent.client.authorization, url);
    await payByCard(ctx.app, consent);
    await deliverer.runDue();
    clock.advance(2 * 60 * 60_000 - 2_000);
    await deliverer.runDue();
    expect(hook.received).toHaveLength(1);
    // Now it asks for more than is left of the retry window: the delivery is given up.
    hook.answerWith(() => ({
      status: 429,
      headers: { 'retry-after': String(WEBHOOK_RETRY_WINDOW_MS / 1_000) },
    }));
    clock.advance(3_000);
    await deliverer.runDue();
    expect(hook.received).toHaveLength(2);
    expect((await deliveries(consent.client.authorization))[0]).toMatchObject({
      status: 'failed',
      attempts: 2,
      lastStatus: 429,
    });
    await hook.close();
  });
});

describe('endpoints per client', () => {
  it(
    'are at most 10, however many registrations arrive at once',
    { tags: ['postgres'] },
    async () => {
      const client = await createTestClient(ctx.database, { name: 'Busy Shop' });
      const answers = await Promise.all(
        Array.from({ length: 14 }, (_, n) =>
          ctx.app.inject({
            method: 'POST',
            url: '/api/v1/webhooks',
            headers: { authorization: client.authorization },
            payload: { url: `https://shop.example/hooks/${n}` },
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode);
      expect(statuses.filter((status) => status === 201)).toHaveLength(10);
      for (const refused of answers.filter((answer) => answer.statusCode !== 201)) {
        expect(refused.statusCode).toBe(400);
        expect(refused.json().error.message).toBe('url: at most 10 webhooks');
      }
      const listed = await ctx.app.inject({
        method: 'GET',
        url: '/api/v1/webhooks',
        headers: { authorization: client.authorization },
      });
      expect(listed.json().webhooks).toHaveLength(10);
    },
  );
});
