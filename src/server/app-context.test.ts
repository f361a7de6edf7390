// The composition root (ARCHITECTURE.md): buildApp makes one context, and what a test hands in
// (a clock, an SMS adapter, an event bus) is what every route then uses.
import { afterEach, describe, expect, it } from 'vitest';
import { PHONE_CODE_TTL_MS, toNigerianE164 } from '../domain/schemas/auth';
import type { TEvent } from './events/event-bus';
import { inProcessEventBus } from './events/in-process-event-bus';
import { recordingSmsSender } from './providers/sms-recording';
import { createTestClient, startTestApp, testClock } from './testing/test-app';
import { loginWithCode, sendCode, testPhone } from './testing/identity';

let ctx: Awaited<ReturnType<typeof startTestApp>> | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

const codeIn = (body: string | undefined) => /code is (\d{6})/.exec(body ?? '')?.[1] ?? '';

/** The bus's consent.created of a consent the client created. */
const createdEvent = (consentId: string, client: { clientId: string; merchantId: string }) => ({
  type: 'consent.created',
  id: expect.any(String),
  data: { consentId, clientId: client.clientId, merchantId: client.merchantId },
});

describe('the app context', () => {
  it('chooses its adapters from the configuration: the sandbox outbox and the sandbox network', async () => {
    ctx = await startTestApp();
    expect(ctx.context.config.smsProvider).toBe('sandbox');
    const phone = testPhone();
    expect((await sendCode(ctx.app, phone)).statusCode).toBe(200);
    const outbox = await ctx.app.inject({
      method: 'GET',
      url: `/api/sandbox/messages?phone=${encodeURIComponent(phone)}`,
    });
    expect(outbox.json().messages).toHaveLength(1);
    expect(ctx.context.providers.payments.cards.provider).toBe('sandbox');
    expect(ctx.context.sandbox).not.toBeNull();
  });

  it('sends codes through the SMS adapter a test hands in, and nothing lands in the outbox', async () => {
    const sms = recordingSmsSender();
    ctx = await startTestApp({ providers: { sms } });
    const phone = testPhone();
    expect((await sendCode(ctx.app, phone)).statusCode).toBe(200);
    expect(sms.sent).toEqual([{ to: toNigerianE164(phone), body: expect.any(String) }]);
    const outbox = await ctx.app.inject({
      method: 'GET',
      url: `/api/sandbox/messages?phone=${encodeURIComponent(phone)}`,
    });
    expect(outbox.json().messages).toEqual([]);
    // The code it recorded is the one that signs in.
    const login = await loginWithCode(ctx.app, {
      phone,
      code: codeIn(sms.sent[0]?.body),
      fullName: 'Chiamaka Eze',
    });
    expect(login.statusCode).toBe(200);
  });

  it('reads the time of every request from the clock a test hands in', async () => {
    const clock = testClock('2031-07-01T09:00:00Z');
    const sms = recordingSmsSender();
    ctx = await startTestApp({ clock, providers: { sms } });
    const phone = testPhone();
    const sent = await sendCode(ctx.app, phone);
    expect(sent.json().expiresAt).toBe(
      new Date(Date.parse('2031-07-01T09:00:00Z') + PHONE_CODE_TTL_MS).toISOString(),
    );
    clock.advance(PHONE_CODE_TTL_MS + 1_000);
    const late = await loginWithCode(ctx.app, {
      phone,
      code: codeIn(sms.sent[0]?.body),
      fullName: 'Chiamaka Eze',
    });
    expect(late.statusCode).toBe(400);
    expect(late.json().error.code).toBe('PHONE_CODE_EXPIRED');
  });

  it('publishes consent.created on the event bus once per consent, not on a retry', async () => {
    const events = inProcessEventBus({ onError: (error) => expect.fail(String(error)) });
    ctx = await startTestApp({ events });
    const received: TEvent<'consent.created'>[] = [];
    let heardLast: () => void = () => {};
    const last = new Promise<void>((resolve) => (heardLast = resolve));
    events.subscribe('consent.created', (event) => {
      if (event.id === 'evt_last') heardLast();
      else received.push(event);
    });
    const client = await createTestClient(ctx.database);
    const create = () =>
      ctx!.app.inject({
        method: 'POST',
        url: '/api/v1/consents',
        headers: { authorization: client.authorization, 'idempotency-key': 'order-1' },
        payload: { payments: [{ type: 'immediate', amount: 150_000, narration: 'Order 1' }] },
      });
    const first = await create();
    expect(first.statusCode).toBe(201);
    expect((await create()).statusCode).toBe(200);
    // The bus delivers in order: once a marker sent after both calls is heard, theirs have been.
    const marker = {
      consentId: 'cns_last',
      clientId: client.clientId,
      merchantId: client.merchantId,
    };
    await events.publish({ type: 'consent.created', data: marker, id: 'evt_last' });
    await last;
    expect(received).toEqual([createdEvent(first.json().consentId, client)]);
    await events.close();
  });

  it('sends consent.created with the consent on its own database bus, once, not on a retry', async () => {
    ctx = await startTestApp();
    const { events } = ctx.context;
    const received: TEvent<'consent.created'>[] = [];
    let heardLast: () => void = () => {};
    const last = new Promise<void>((resolve) => (heardLast = resolve));
    events.subscribe('consent.created', (event) => {
      received.push(event);
      if (event.id === 'evt_last') heardLast();
    });
    const client = await createTestClient(ctx.database);
    const create = (key: string, expiresAt?: string) =>
      ctx!.app.inject({
        method: 'POST',
        url: '/api/v1/consents',
        headers: { authorization: client.authorization, 'idempotency-key': key },
        payload: {
          payments: [{ type: 'immediate', amount: 150_000, narration: 'Order 1' }],
          ...(expiresAt ? { expiresAt } : {}),
        },
      });
    const first = await create('order-1');
    expect(first.statusCode).toBe(201);
    expect((await create('order-1')).statusCode).toBe(200);
    expect((await create('order-2', '2020-01-01T00:00:00.000Z')).statusCode).toBe(400);
    // Notices arrive in commit order: once this one is heard, any sent before it has been.
    const data = {
      consentId: 'cns_last',
      clientId: client.clientId,
      merchantId: client.merchantId,
    };
    await events.publish({ type: 'consent.created', data, id: 'evt_last' });
    await last;
    expect(received).toEqual([
      createdEvent(first.json().consentId, client),
      { type: 'consent.created', id: 'evt_last', data },
    ]);
  });
});
