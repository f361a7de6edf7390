// A merchant's webhooks added, changed, turned off and deleted on the dashboard (docs/dashboard.md
// "Developers"): the merchant API's own rules (an https URL that resolves to public addresses,
// the domain's event types, 10 a key), each act for the signed-in staff's merchant only and for
// owners and developers only, written to the audit log in words, once per Idempotency-Key; the
// signing secret is in the answer that adds the webhook and nowhere else.
import { eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { AUDIT_WORDS } from '../../domain/audit-words';
import type { TStaffRole } from '../../domain/dashboard-roles';
import { errorBody } from '../../domain/errors';
import type { TDashboardAuditEntry, TDashboardWebhook } from '../../domain/schemas/dashboard';
import type { TWebhookEventType } from '../../domain/schemas/webhooks';
import { idempotencyKeys, webhookDeliveries, webhookEndpoints } from '../db/schema';
import { fireTestEvent } from '../services/merchants/fire-test-event';
import { dashboardCall, staffMember, type TStaffSession } from '../testing/dashboard';
import { createTestClient, testClock, useTestApp } from '../testing/test-app';

const clock = testClock(new Date());

// Nothing here is sent: the deliveries an event makes are read as rows.
const ctx = useTestApp({ clock, webhookDelivery: 'manual' });

const call = (staff: TStaffSession | null, options: InjectOptions) =>
  dashboardCall(ctx, staff, options);

/** A merchant with one API key, and a member of its team with `role`. */
async function merchantWith(role: TStaffRole = 'owner') {
  const client = await createTestClient(ctx.database, { name: 'Tola Stores' });
  const member = await staffMember(ctx, { merchantId: client.merchantId, role }, clock.now());
  return { client, member };
}

type TAdded = { webhook: TDashboardWebhook; secret: string };

const add = (
  staff: TStaffSession,
  body: { clientId: string; url: string; events: TWebhookEventType[] | null },
  key?: string,
) =>
  call(staff, {
    method: 'POST',
    url: '/api/dashboard/webhooks',
    payload: body,
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  });

async function added(staff: TStaffSession, clientId: string, events: TWebhookEventType[] | null) {
  const answer = await add(staff, { clientId, url: 'https://shop.example/hooks', events });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json<TAdded>();
}

const listed = async (staff: TStaffSession) => {
  const answer = await call(staff, { method: 'GET', url: '/api/dashboard/webhooks' });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ webhooks: TDashboardWebhook[] }>().webhooks;
};

const auditOf = async (owner: TStaffSession) => {
  const answer = await call(owner, { method: 'GET', url: '/api/dashboard/audit' });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ entries: TDashboardAuditEntry[] }>().entries;
};

/** Fires a test event of `type` for the key; answers the deliveries it made, by endpoint. */
async function fire(clientId: string, type: TWebhookEventType) {
  const event = await fireTestEvent(
    { db: ctx.database.db, jobs: ctx.app.jobs },
    {
      clientId,
      type,
      sandbox: true,
      now: clock.now(),
    },
  );
  const rows = await ctx.database.db.execute(sql`
    SELECT d.endpoint_id, d.status, d.last_error FROM webhook_deliveries d
    JOIN merchant_events m ON m.id = d.event_id WHERE m.public_id = ${event.id}`);
  const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as {
    endpoint_id: string;
    status: string;
    last_error: string | null;
  }[];
  return new Map(list.map((row) => [row.endpoint_id, row]));
}

const notFound = errorBody('NOT_FOUND', 'No webhook of yours has this id');

describe('adding a webhook', () => {
  it('answers its signing secret once, and keeps it nowhere a read or a retry shows it', async () => {
    const { client, member: owner } = await merchantWith();
    const first = await add(
      owner,
      {
        clientId: client.clientId,
        url: 'https://shop.example/hooks?token=abc',
        events: ['payment.completed', 'refund.processed'],
      },
      'add-1',
    );
    expect(first.statusCode, first.body).toBe(201);
    const { webhook, secret } = first.json<TAdded>();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(webhook).toEqual({
      webhookId: expect.stringMatching(/^whk_/),
      clientId: client.clientId,
      url: 'https://shop.example/hooks?token=abc',
      events: ['payment.completed', 'refund.processed'],
      status: 'active',
      disabledBy: null,
      createdAt: clock.now().toISOString(),
    });

    // A retry with the same key is the same webhook and secret, and adds nothing.
    const retried = await add(
      owner,
      {
        clientId: client.clientId,
        url: 'https://shop.example/hooks?token=abc',
        events: ['payment.completed', 'refund.processed'],
      },
      'add-1',
    );
    expect(retried.json()).toEqual(first.json());
    expect(await listed(owner)).toEqual([webhook]);
    // The same key with another URL is refused, not answered with the first secret.
    const reused = await add(
      owner,
      { clientId: client.clientId, url: 'https://other.example/hooks', events: null },
      'add-1',
    );
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toMatchObject({ error: { code: 'IDEMPOTENCY_KEY_REUSED' } });

    // Nothing else answers or keeps the secret in clear: not the list, not a change, not the
    // audit log, not the stored answer of the key (it holds the secret sealed).
    const changed = await call(owner, {
      method: 'PATCH',
      url: `/api/dashboard/webhooks/${webhook.webhookId}`,
      payload: { events: null },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const reads = [
      await call(owner, { method: 'GET', url: '/api/dashboard/webhooks' }),
      await call(owner, { method: 'GET', url: '/api/dashboard/audit' }),
      changed,
    ];
    for (const read of reads) expect(read.body).not.toContain(secret.slice('whsec_'.length));
    const [stored] = await ctx.database.db
      .select({ response: idempotencyKeys.response })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.scope, `webhooks.create:${client.clientId}`));
    expect(stored).toBeDefined();
    expect(JSON.stringify(stored)).not.toContain(secret.slice('whsec_'.length));
    const [row] = await ctx.database.db
      .select({ sealed: webhookEndpoints.secretSealed })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, webhook.webhookId));
    expect(row?.sealed).not.toContain(secret.slice('whsec_'.length));

    // The audit log says it in words, naming the URL by its origin (a query may carry a token).
    const entry = (await auditOf(owner)).find((e) => e.action === 'webhook.added');
    expect(entry).toMatchObject({
      target: webhook.webhookId,
      data: {
        clientId: client.clientId,
        url: 'https://shop.example',
        events: ['payment.completed', 'refund.processed'],
      },
    });
  });

  it('refuses what the merchant API refuses, each with a catalogue 4xx', async () => {
    const { client, member: owner } = await merchantWith();
    const { clientId } = client;
    const refusals: Array<[Record<string, unknown>, number, string]> = [
      [{ clientId, url: 'http://shop.example/hooks', events: null }, 400, 'WEBHOOK_URL_REFUSED'],
      [{ clientId, url: 'https://127.0.0.1/hooks', events: null }, 400, 'WEBHOOK_URL_REFUSED'],
      [{ clientId, url: 'https://u:p@shop.example/', events: null }, 400, 'WEBHOOK_URL_REFUSED'],
      [{ clientId, url: 'https://nowhere.invalid/', events: null }, 400, 'WEBHOOK_URL_REFUSED'],
      [{ clientId, url: 'not a url', events: null }, 400, 'VALIDATION_FAILED'],
      [{ clientId, url: 'https://shop.example/', events: [] }, 400, 'VALIDATION_FAILED'],
      [
        { clientId, url: 'https://shop.example/', events: ['order.paid'] },
        400,
        'VALIDATION_FAILED',
      ],
      [
        { clientId, url: 'https://shop.example/', events: ['refund.failed', 'refund.failed'] },
        400,
        'VALIDATION_FAILED',
      ],
      [{ clientId, url: 'https://shop.example/' }, 400, 'VALIDATION_FAILED'],
      [{ url: 'https://shop.example/', events: null }, 400, 'VALIDATION_FAILED'],
      [{ clientId: 'cli_nobody', url: 'https://shop.example/', events: null }, 404, 'NOT_FOUND'],
    ];
    for (const [payload, status, code] of refusals) {
      const answer = await call(owner, { method: 'POST', url: '/api/dashboard/webhooks', payload });
      expect({ payload, status: answer.statusCode, code: answer.json().error?.code }).toEqual({
        payload,
        status,
        code,
      });
    }
    expect(await listed(owner)).toEqual([]);

    // Ten a key, as the merchant API counts them.
    for (let i = 0; i < 10; i += 1) await added(owner, clientId, null);
    const eleventh = await add(owner, { clientId, url: 'https://shop.example/11', events: null });
    expect(eleventh.statusCode).toBe(400);
    expect(eleventh.json()).toEqual(errorBody('VALIDATION_FAILED', 'url: at most 10 webhooks'));
  });
});

describe('changing, turning off and deleting a webhook', () => {
  it(
    'changes its URL and events, and sends it only the events it names from then on',
    { tags: ['postgres'] },
    async () => {
      const { client, member: owner } = await merchantWith();
      const { webhook: every } = await added(owner, client.clientId, null);
      const { webhook } = await added(owner, client.clientId, ['payment.completed']);

      const first = await fire(client.clientId, 'refund.processed');
      expect(first.get(every.webhookId)?.status).toBe('pending');
      expect(first.has(webhook.webhookId)).toBe(false);

      const changed = await call(owner, {
        method: 'PATCH',
        url: `/api/dashboard/webhooks/${webhook.webhookId}`,
        payload: { url: 'https://new.shop.example/in', events: ['refund.processed'] },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toEqual({
        success: true,
        webhook: { ...webhook, url: 'https://new.shop.example/in', events: ['refund.processed'] },
      });
      const second = await fire(client.clientId, 'refund.processed');
      expect(second.get(webhook.webhookId)?.status).toBe('pending');
      expect((await fire(client.clientId, 'payment.completed')).has(webhook.webhookId)).toBe(false);

      // What is left out stays: the events alone, then the URL alone.
      const eventsOnly = await call(owner, {
        method: 'PATCH',
        url: `/api/dashboard/webhooks/${webhook.webhookId}`,
        payload: { events: null },
      });
      expect(eventsOnly.json<{ webhook: TDashboardWebhook }>().webhook).toMatchObject({
        url: 'https://new.shop.example/in',
        events: null,
      });
      const refused = await call(owner, {
        method: 'PATCH',
        url: `/api/dashboard/webhooks/${webhook.webhookId}`,
        payload: { url: 'https://10.0.0.5/in' },
      });
      expect(refused.json()).toEqual(errorBody('WEBHOOK_URL_REFUSED'));
      const nothing = await call(owner, {
        method: 'PATCH',
        url: `/api/dashboard/webhooks/${webhook.webhookId}`,
        payload: {},
      });
      expect(nothing.statusCode).toBe(400);
      expect(nothing.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });

      const changes = (await auditOf(owner)).filter((e) => e.action === 'webhook.changed');
      expect(changes.map((e) => e.data)).toEqual([
        { events: null },
        { url: 'https://new.shop.example', events: ['refund.processed'] },
      ]);
    },
  );

  it(
    'turns it off until it is enabled, failing what it was owed and what comes meanwhile',
    { tags: ['postgres'] },
    async () => {
      const { client, member: owner } = await merchantWith();
      const { webhook } = await added(owner, client.clientId, null);
      const owed = await fire(client.clientId, 'payment.completed');
      expect(owed.get(webhook.webhookId)?.status).toBe('pending');

      const disable = () =>
        call(owner, {
          method: 'POST',
          url: `/api/dashboard/webhooks/${webhook.webhookId}/disable`,
        });
      const off = await disable();
      expect(off.statusCode, off.body).toBe(200);
      expect(await listed(owner)).toEqual([
        { ...webhook, status: 'disabled', disabledBy: 'staff' },
      ]);
      const failed = await ctx.database.db
        .select({ status: webhookDeliveries.status, lastError: webhookDeliveries.lastError })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, webhook.webhookId));
      const turnedOff = 'not sent: the webhook was disabled on the dashboard';
      expect(failed).toEqual([{ status: 'failed', lastError: turnedOff }]);
      expect((await fire(client.clientId, 'refund.processed')).get(webhook.webhookId)).toEqual({
        endpoint_id: webhook.webhookId,
        status: 'failed',
        last_error: turnedOff,
      });

      // A resend waits for it to be enabled, and says so without naming a 410.
      const deliveries = await call(owner, {
        method: 'GET',
        url: '/api/dashboard/webhooks/deliveries',
      });
      const [delivery] = deliveries.json<{ deliveries: Array<{ id: number }> }>().deliveries;
      const resend = await call(owner, {
        method: 'POST',
        url: `/api/dashboard/webhooks/deliveries/${delivery?.id}/resend`,
      });
      expect(resend.statusCode).toBe(409);
      expect(resend.json()).toEqual(
        errorBody('WEBHOOK_DISABLED', 'This webhook is disabled; enable it first'),
      );

      // Turning off one that is off changes nothing and logs nothing more.
      expect((await disable()).statusCode).toBe(200);
      const audit = await auditOf(owner);
      expect(audit.filter((e) => e.action === 'webhook.disabled')).toHaveLength(1);

      const on = await call(owner, {
        method: 'POST',
        url: `/api/dashboard/webhooks/${webhook.webhookId}/enable`,
      });
      expect(on.statusCode, on.body).toBe(200);
      expect(await listed(owner)).toEqual([webhook]);
      expect((await fire(client.clientId, 'refund.processed')).get(webhook.webhookId)?.status).toBe(
        'pending',
      );
    },
  );

  it('deletes it, gives up what it was owed, and answers a retry of the key as the first', async () => {
    const { client, member: owner } = await merchantWith();
    const { webhook } = await added(owner, client.clientId, null);
    await fire(client.clientId, 'payment.completed');
    const remove = (key?: string) =>
      call(owner, {
        method: 'DELETE',
        url: `/api/dashboard/webhooks/${webhook.webhookId}`,
        ...(key ? { headers: { 'idempotency-key': key } } : {}),
      });
    const gone = await remove('delete-1');
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await listed(owner)).toEqual([]);
    const owed = await ctx.database.db
      .select({ status: webhookDeliveries.status, lastError: webhookDeliveries.lastError })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, webhook.webhookId));
    expect(owed).toEqual([{ status: 'failed', lastError: 'endpoint deleted' }]);
    expect((await remove('delete-1')).json()).toEqual(gone.json());
    const again = await remove();
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual(notFound);
    const deleted = (await auditOf(owner)).filter((e) => e.action === 'webhook.deleted');
    expect(deleted).toEqual([
      expect.objectContaining({ target: webhook.webhookId, data: { url: 'https://shop.example' } }),
    ]);
  });
});

describe('whose webhooks', () => {
  it('reads another merchant’s webhook and key as not found, and changes nothing of theirs', async () => {
    const { client, member: owner } = await merchantWith();
    const { webhook } = await added(owner, client.clientId, null);
    const { member: stranger } = await merchantWith();
    const acts: InjectOptions[] = [
      {
        method: 'PATCH',
        url: `/api/dashboard/webhooks/${webhook.webhookId}`,
        payload: { url: 'https://thief.example/in' },
      },
      { method: 'POST', url: `/api/dashboard/webhooks/${webhook.webhookId}/disable` },
      { method: 'POST', url: `/api/dashboard/webhooks/${webhook.webhookId}/enable` },
      { method: 'POST', url: `/api/dashboard/webhooks/${webhook.webhookId}/rotate-secret` },
      { method: 'DELETE', url: `/api/dashboard/webhooks/${webhook.webhookId}` },
    ];
    for (const act of acts) {
      const answer = await call(stranger, act);
      expect({ act: act.url, status: answer.statusCode, body: answer.json() }).toEqual({
        act: act.url,
        status: 404,
        body: notFound,
      });
    }
    const theirKey = await add(stranger, {
      clientId: client.clientId,
      url: 'https://thief.example/in',
      events: null,
    });
    expect(theirKey.statusCode).toBe(404);
    expect(theirKey.json()).toEqual(
      errorBody('NOT_FOUND', 'No API key of yours has this client id'),
    );
    expect(await listed(stranger)).toEqual([]);
    expect(await listed(owner)).toEqual([webhook]);
    expect((await auditOf(stranger)).filter((e) => e.action.startsWith('webhook.'))).toEqual([]);
  });

  it('lets owners and developers change webhooks, and refuses support and viewers', async () => {
    const { client, member: developer } = await merchantWith('developer');
    const { webhook } = await added(developer, client.clientId, ['form.completed']);
    for (const role of ['support', 'viewer'] as const) {
      const member = await staffMember(ctx, { merchantId: client.merchantId, role }, clock.now());
      const acts: Array<InjectOptions & { url: string }> = [
        { method: 'GET', url: '/api/dashboard/webhooks' },
        {
          method: 'POST',
          url: '/api/dashboard/webhooks',
          payload: { clientId: client.clientId, url: 'https://shop.example/in', events: null },
        },
        {
          method: 'PATCH',
          url: `/api/dashboard/webhooks/${webhook.webhookId}`,
          payload: { events: null },
        },
        { method: 'POST', url: `/api/dashboard/webhooks/${webhook.webhookId}/disable` },
        { method: 'DELETE', url: `/api/dashboard/webhooks/${webhook.webhookId}` },
      ];
      for (const act of acts) {
        const answer = await call(member, act);
        expect({ role, act: `${act.method} ${act.url}`, body: answer.json() }).toEqual({
          role,
          act: `${act.method} ${act.url}`,
          body: errorBody('DASHBOARD_ROLE_FORBIDDEN'),
        });
        expect(answer.statusCode).toBe(403);
      }
    }
    expect(await listed(developer)).toEqual([webhook]);
  });

  it('rotates a secret once per Idempotency-Key: a retry answers the same secret, and the one in use keeps signing', async () => {
    const { client, member: owner } = await merchantWith();
    const { webhook } = await added(owner, client.clientId, null);
    const rotate = (key: string) =>
      call(owner, {
        method: 'POST',
        url: `/api/dashboard/webhooks/${webhook.webhookId}/rotate-secret`,
        headers: { 'idempotency-key': key },
      });
    const first = await rotate('rotate-key-0001');
    expect(first.statusCode, first.body).toBe(200);
    const retried = await rotate('rotate-key-0001');
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toEqual(first.json());
    // One rotation: the secret added with the webhook is the one retiring, still signing.
    const [row] = await ctx.database.db
      .select({ retiring: webhookEndpoints.retiringSecrets })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, webhook.webhookId));
    expect(row?.retiring).toHaveLength(1);
    const rotations = (await auditOf(owner)).filter(
      (e) => e.target === webhook.webhookId && e.action === 'webhook.secret_rotated',
    );
    expect(rotations).toHaveLength(1);
    // Another key is another rotation.
    const second = await rotate('rotate-key-0002');
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json<{ secret: string }>().secret).not.toBe(
      first.json<{ secret: string }>().secret,
    );
  });

  it('enables a webhook once per Idempotency-Key', async () => {
    const { client, member: owner } = await merchantWith();
    const { webhook } = await added(owner, client.clientId, null);
    const url = `/api/dashboard/webhooks/${webhook.webhookId}`;
    await call(owner, { method: 'POST', url: `${url}/disable` });
    const enable = () =>
      call(owner, {
        method: 'POST',
        url: `${url}/enable`,
        headers: { 'idempotency-key': 'enable-key-01' },
      });
    expect((await enable()).statusCode).toBe(200);
    expect((await enable()).statusCode).toBe(200);
    const enabled = (await auditOf(owner)).filter(
      (e) => e.target === webhook.webhookId && e.action === 'webhook.enabled',
    );
    expect(enabled).toHaveLength(1);
  });

  it('writes each act to the audit log in words the log knows', async () => {
    const { client, member: owner } = await merchantWith();
    const { webhook } = await added(owner, client.clientId, null);
    const url = `/api/dashboard/webhooks/${webhook.webhookId}`;
    await call(owner, { method: 'PATCH', url, payload: { events: ['consent.granted'] } });
    await call(owner, { method: 'POST', url: `${url}/disable` });
    await call(owner, { method: 'POST', url: `${url}/enable` });
    await call(owner, { method: 'DELETE', url });
    const acts = (await auditOf(owner))
      .filter((e) => e.target === webhook.webhookId)
      .map((e) => e.action);
    expect(acts).toEqual([
      'webhook.deleted',
      'webhook.enabled',
      'webhook.disabled',
      'webhook.changed',
      'webhook.added',
    ]);
    for (const act of acts) expect(Object.keys(AUDIT_WORDS)).toContain(act);
  });
});
