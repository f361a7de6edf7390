// The dashboard's Events and Forms screens (docs/dashboard.md "Screens"): the merchant API's own
// event list over every client of the merchant, by type and Lagos day, newest first, 25 a page;
// the merchant's forms, a form's responses with who answered and when, and a response's answers.
// Owner and developer read events, owner, developer and support read forms; another merchant's
// events are never listed and its forms and responses answer 404.
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { TStaffRole } from '../../domain/dashboard-roles';
import { errorBody } from '../../domain/errors';
import type { TDashboardFormRead } from '../../domain/schemas/dashboard-events-forms';
import type { TMerchantFormResponse } from '../../domain/schemas/form';
import type { TMerchantEventsResponse, TWebhookEventType } from '../../domain/schemas/webhooks';
import { SAMPLE_FORM_INPUT } from '../../domain/test-support/form-fixtures';
import { apiClients } from '../db/schema';
import { fireTestEvent } from '../services/merchants/fire-test-event';
import { dashboardCall, staffMember, type TStaffSession } from '../testing/dashboard';
import { createTestClient, useTestApp, testClock } from '../testing/test-app';

const HOUR = 60 * 60 * 1_000;
const clock = testClock('2031-05-10T12:00:00Z');

const ctx = useTestApp({ clock, webhookDelivery: 'manual' });

const get = (staff: TStaffSession, url: string, query: InjectOptions['query'] = {}) =>
  dashboardCall(ctx, staff, { method: 'GET', url, query });
const staffOf = (merchantId: string, role: TStaffRole) =>
  staffMember(ctx, { merchantId, role }, clock.now());

/** A test event of the client's, recorded `hoursAgo` before the clock's now. */
const fire = (clientId: string, type: TWebhookEventType, hoursAgo: number) =>
  fireTestEvent(
    { db: ctx.database.db, jobs: ctx.app.jobs },
    {
      clientId,
      type,
      sandbox: true,
      now: new Date(clock.now().getTime() - hoursAgo * HOUR),
    },
  );

describe('events', () => {
  it('lists the events of every client of the merchant, newest first, by type and day, 25 a page', async () => {
    const merchant = await createTestClient(ctx.database, { name: 'Kemi Fabrics' });
    const second = 'cli_kemi_second';
    await ctx.database.db.insert(apiClients).values({
      clientId: second,
      merchantId: merchant.merchantId,
      secretHash: 'not-a-secret',
      allowedOrigins: [],
    });
    const other = await createTestClient(ctx.database, { name: 'Other Shop' });
    // 30 events over 30 hours (the newest an hour ago), a third of them of the second client.
    const fired = [];
    for (let i = 30; i >= 1; i--) {
      const type = i % 2 === 0 ? 'payment.completed' : 'refund.processed';
      fired.push(await fire(i % 3 === 0 ? second : merchant.clientId, type, i));
    }
    const foreign = await fire(other.clientId, 'payment.completed', 2);
    const developer = await staffOf(merchant.merchantId, 'developer');

    const first = await get(developer, '/api/dashboard/events');
    expect(first.statusCode, first.body).toBe(200);
    const page = first.json<TMerchantEventsResponse>();
    expect(page.events).toHaveLength(25);
    expect(page.events[0]).toEqual(fired.at(-1));
    const next = await get(developer, '/api/dashboard/events', { cursor: page.nextCursor ?? '' });
    const rest = next.json<TMerchantEventsResponse>();
    expect(rest.nextCursor).toBeNull();
    const listed = [...page.events, ...rest.events].map((e) => e.id);
    expect(listed).toEqual(fired.map((e) => e.id).reverse());
    expect(listed).not.toContain(foreign.id);

    const refunds = await get(developer, '/api/dashboard/events', { type: 'refund.processed' });
    const refundTypes = refunds.json<TMerchantEventsResponse>().events.map((e) => e.type);
    expect(refundTypes).toHaveLength(15);
    expect(new Set(refundTypes)).toEqual(new Set(['refund.processed']));

    // Lagos days: the clock is 13:00 in Lagos on 10 May; 10 May holds the 13 newest events.
    const today = await get(developer, '/api/dashboard/events', { from: '2031-05-10' });
    expect(today.json<TMerchantEventsResponse>().events).toHaveLength(13);
    const before = await get(developer, '/api/dashboard/events', {
      from: '2031-05-09',
      to: '2031-05-09',
    });
    expect(before.json<TMerchantEventsResponse>().events.map((e) => e.id)).toEqual(
      fired
        .slice(0, 17)
        .map((e) => e.id)
        .reverse(),
    );

    // The other merchant's owner sees its one event only.
    const stranger = await staffOf(other.merchantId, 'owner');
    const theirs = await get(stranger, '/api/dashboard/events');
    expect(theirs.json<TMerchantEventsResponse>().events.map((e) => e.id)).toEqual([foreign.id]);
  });

  it('refuses support and viewers, and a cursor it did not make', async () => {
    const merchant = await createTestClient(ctx.database);
    for (const role of ['support', 'viewer'] as const) {
      const staff = await staffOf(merchant.merchantId, role);
      expect((await get(staff, '/api/dashboard/events')).json()).toEqual(
        errorBody('DASHBOARD_ROLE_FORBIDDEN'),
      );
    }
    const owner = await staffOf(merchant.merchantId, 'owner');
    const bad = await get(owner, '/api/dashboard/events', { cursor: 'bm90LWEtY3Vyc29y' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
  });
});

describe('forms and responses', () => {
  /** A merchant with a form and a payer's response to it: one section answered. */
  async function merchantWithResponse(name: string, reference: string) {
    const client = await createTestClient(ctx.database, { name });
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/forms',
      headers: { authorization: client.authorization },
      payload: SAMPLE_FORM_INPUT,
    });
    expect(created.statusCode, created.body).toBe(201);
    const { formId } = created.json<{ formId: string }>();
    const asked = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/consents',
      headers: { authorization: client.authorization },
      payload: { formId, reference },
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const { consentId } = asked.json<{ consentId: string }>();
    const saved = await ctx.app.inject({
      method: 'PUT',
      url: '/api/form/sections/about',
      payload: {
        consentId,
        clientId: client.clientId,
        answers: { fullName: 'Ada Obi', email: 'ada@example.com', phone: '0803 123 4567' },
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    return { client, formId, consentId };
  }

  it('lists the forms, a form’s responses with who answered and when, and the answers', async () => {
    const { client, formId, consentId } = await merchantWithResponse('Lagos Gym', 'LG-77');
    const support = await staffOf(client.merchantId, 'support');

    const list = await get(support, '/api/dashboard/forms');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toEqual({
      success: true,
      forms: [
        {
          formId,
          clientId: client.clientId,
          title: 'Membership for {{memberName}}',
          latestVersion: 1,
          responses: 1,
          createdAt: expect.any(String),
        },
      ],
      nextCursor: null,
    });

    const form = await get(support, `/api/dashboard/forms/${formId}`);
    expect(form.statusCode, form.body).toBe(200);
    const read = form.json<TDashboardFormRead>();
    expect(read.form.formId).toBe(formId);
    expect(read.responses).toEqual([
      {
        responseId: expect.any(String),
        formVersion: 1,
        consentId,
        reference: 'LG-77',
        mandates: [],
        startedAt: expect.any(String),
        updatedAt: expect.any(String),
        submittedAt: null,
      },
    ]);
    const responseId = read.responses[0]?.responseId ?? '';

    const answers = await get(support, `/api/dashboard/forms/${formId}/responses/${responseId}`);
    expect(answers.statusCode, answers.body).toBe(200);
    const { response } = answers.json<TMerchantFormResponse>();
    expect(response).toMatchObject({ id: responseId, consentId, complete: false });
    expect(response.sections[0]?.answers).toEqual([
      { fieldId: 'fullName', label: 'Full name', kind: 'short_text', value: 'Ada Obi' },
      { fieldId: 'email', label: 'Email address', kind: 'email', value: 'ada@example.com' },
      { fieldId: 'phone', label: 'Mobile number', kind: 'phone', value: '0803 123 4567' },
    ]);
    // The merchant API reads the same answers.
    const api = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/forms/${formId}/responses/${responseId}`,
      headers: { authorization: client.authorization },
    });
    expect(api.json<TMerchantFormResponse>().response).toEqual(response);
  });

  it('lists no other merchant’s forms and answers theirs, and their responses, 404', async () => {
    const mine = await merchantWithResponse('Mine', 'M-1');
    const theirs = await merchantWithResponse('Theirs', 'T-1');
    const owner = await staffOf(mine.client.merchantId, 'owner');
    const stranger = await staffOf(theirs.client.merchantId, 'owner');
    const theirResponse = (
      await get(stranger, `/api/dashboard/forms/${theirs.formId}`)
    ).json<TDashboardFormRead>().responses[0]?.responseId;
    const myResponse = (
      await get(owner, `/api/dashboard/forms/${mine.formId}`)
    ).json<TDashboardFormRead>().responses[0]?.responseId;

    const listed = (await get(owner, '/api/dashboard/forms')).json<{
      forms: { formId: string }[];
    }>();
    expect(listed.forms.map((f) => f.formId)).toEqual([mine.formId]);
    expect((await get(owner, `/api/dashboard/forms/${theirs.formId}`)).json()).toEqual(
      errorBody('FORM_NOT_FOUND'),
    );
    const foreign = await get(
      owner,
      `/api/dashboard/forms/${theirs.formId}/responses/${theirResponse ?? ''}`,
    );
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(errorBody('FORM_NOT_FOUND'));
    // Their response under my form's id is no response of mine.
    const crossed = await get(
      owner,
      `/api/dashboard/forms/${mine.formId}/responses/${theirResponse ?? ''}`,
    );
    expect(crossed.statusCode).toBe(404);
    expect(myResponse).toBeDefined();
  });

  it('refuses viewers; developers and support read', async () => {
    const { client, formId } = await merchantWithResponse('Roles Gym', 'R-1');
    const viewer = await staffOf(client.merchantId, 'viewer');
    for (const url of ['/api/dashboard/forms', `/api/dashboard/forms/${formId}`]) {
      expect((await get(viewer, url)).json()).toEqual(errorBody('DASHBOARD_ROLE_FORBIDDEN'));
    }
    const developer = await staffOf(client.merchantId, 'developer');
    expect((await get(developer, `/api/dashboard/forms/${formId}`)).statusCode).toBe(200);
  });
});
