// A consent whose every request is met by its payment is granted when the payment executes, in the
// payment's transaction: a payer who closes the tab after paying leaves the merchant a granted
// consent, with its audit row, its webhook and its bus event; the page's grant afterwards answers
// it granted.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentEvents, consents, merchantEvents, payments } from '../db/schema';
import type { TEvent } from '../events/event-bus';
import { createTestClient, startTestApp } from '../testing/test-app';
import { signedUpPayer } from '../testing/identity';
import {
  consentWithPayment,
  openTransferAccount,
  payByCard,
  payByTransfer,
  sandboxTransfer,
} from '../testing/payments';

let ctx: Awaited<ReturnType<typeof startTestApp>>;
const heard: TEvent<'consent.granted'>[] = [];
beforeAll(async () => {
  ctx = await startTestApp();
  ctx.context.events.subscribe('consent.granted', (event) => {
    heard.push(event);
  });
});
afterAll(async () => {
  await ctx.close();
});

const readConsent = async (consentId: string, clientId: string) =>
  (
    await ctx.app.inject({ method: 'GET', url: `/api/consent/${consentId}?clientId=${clientId}` })
  ).json<{ consent: { status: string; grantedAt: string | null } }>().consent;

const auditOf = (consentId: string) =>
  ctx.database.db
    .select()
    .from(consentEvents)
    .where(and(eq(consentEvents.consentId, consentId), eq(consentEvents.type, 'consent.granted')));

const webhooksOf = (consentId: string) =>
  ctx.database.db
    .select({ type: merchantEvents.type, data: merchantEvents.data })
    .from(merchantEvents)
    .where(
      and(eq(merchantEvents.consentId, consentId), eq(merchantEvents.type, 'consent.granted')),
    );

const pageGrant = (consentId: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/consent/${consentId}/grant`,
    payload: {
      originalRequestId: null,
      consentData: { consentId },
      userAuthenticated: false,
      attestDiscoveryId: null,
      immediatePayments: { granted: true, selectedAccounts: [], paymentMethods: [] },
    },
  });

/** A consent with an immediate payment and data sharing, open to anonymous payers. */
async function consentWithPaymentAndData() {
  const client = await createTestClient(ctx.database, { name: 'Tola Stores' });
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: client.authorization },
    payload: {
      payments: [{ type: 'immediate', amount: 250_000, narration: 'Order #1043' }],
      dataSharing: { bvnData: true },
    },
  });
  expect(created.statusCode).toBe(201);
  const consentId = created.json<{ consentId: string }>().consentId;
  const read = await ctx.app.inject({
    method: 'GET',
    url: `/api/consent/${consentId}?clientId=${client.clientId}`,
  });
  const paymentId = read
    .json<{ consent: { payments: Array<{ paymentId: string }> } }>()
    .consent.payments.at(0)?.paymentId;
  if (!paymentId) throw new Error('no payment');
  return { client, consentId, paymentId };
}

describe('a consent asking only for an immediate payment', () => {
  it('is granted when paid by transfer, without a grant call: audit row, webhook, bus event', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const sent = await payByTransfer(ctx.app, consent);
    expect(sent.statusCode).toBe(200);

    const read = await readConsent(consent.consentId, consent.client.clientId);
    expect(read).toMatchObject({ status: 'granted', grantedAt: expect.any(String) });
    const audit = await auditOf(consent.consentId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor: 'payer:anonymous',
      data: { grantedBy: 'payment', immediatePaymentId: consent.paymentId, signature: null },
    });
    expect(await webhooksOf(consent.consentId)).toEqual([
      {
        type: 'consent.granted',
        data: {
          consentId: consent.consentId,
          grantedAt: read.grantedAt,
          immediatePaymentId: consent.paymentId,
          dataTypes: [],
          payerAuthenticated: false,
          reference: null,
          metadata: {},
        },
      },
    ]);
    await expect
      .poll(() => heard.filter((e) => e.data.consentId === consent.consentId))
      .toEqual([
        {
          type: 'consent.granted',
          id: expect.any(String),
          data: {
            consentId: consent.consentId,
            clientId: consent.client.clientId,
            merchantId: consent.client.merchantId,
          },
        },
      ]);
  });

  it("answers the page's later grant as a success, without a second grant", async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    expect((await payByCard(ctx.app, consent)).statusCode).toBe(200);
    const granted = await readConsent(consent.consentId, consent.client.clientId);
    expect(granted.status).toBe('granted');

    const answer = await pageGrant(consent.consentId);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({
      success: true,
      status: 'granted',
      paymentResults: { total: 1, succeeded: 1, failed: 0 },
      consent: { status: 'granted', grantedAt: granted.grantedAt },
    });
    expect(await auditOf(consent.consentId)).toHaveLength(1);
    expect(await webhooksOf(consent.consentId)).toHaveLength(1);
  });

  it('names the signed-in payer who paid as its grantor', async () => {
    const payer = await signedUpPayer(ctx.app);
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const sent = await payByTransfer(ctx.app, consent, { token: payer.token });
    expect(sent.statusCode).toBe(200);
    const [audit] = await auditOf(consent.consentId);
    expect(audit?.actor).toBe(`payer:${payer.userId}`);
    const [webhook] = await webhooksOf(consent.consentId);
    expect(webhook?.data).toMatchObject({ payerAuthenticated: true });
  });
});

describe('a consent no longer pending when its payment completes', () => {
  it('is left as it is: neither granted nor recorded', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const { accountNumber, amount } = await openTransferAccount(ctx.app, consent);
    await ctx.database.db
      .update(consents)
      .set({ status: 'declined' })
      .where(eq(consents.id, consent.consentId));
    expect((await sandboxTransfer(ctx.app, { accountNumber, amount })).statusCode).toBe(200);

    const [row] = await ctx.database.db
      .select({ status: consents.status, grantedAt: consents.grantedAt })
      .from(consents)
      .where(eq(consents.id, consent.consentId));
    expect(row).toEqual({ status: 'declined', grantedAt: null });
    const [paid] = await ctx.database.db
      .select({ status: payments.status })
      .from(payments)
      .where(eq(payments.id, consent.paymentId));
    expect(paid).toEqual({ status: 'executed' });
    expect(await auditOf(consent.consentId)).toHaveLength(0);
    expect(await webhooksOf(consent.consentId)).toHaveLength(0);
  });
});

describe('a consent asking for more than its payment', () => {
  it('stays pending when paid if it also asks to share data', async () => {
    const consent = await consentWithPaymentAndData();
    expect((await payByTransfer(ctx.app, consent)).statusCode).toBe(200);
    const read = await readConsent(consent.consentId, consent.client.clientId);
    expect(read).toMatchObject({ status: 'pending', grantedAt: null });
    expect(await auditOf(consent.consentId)).toHaveLength(0);
    expect(await webhooksOf(consent.consentId)).toHaveLength(0);
  });

  it('stays pending when paid if it also asks for future payments', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database, { future: true });
    expect((await payByTransfer(ctx.app, consent)).statusCode).toBe(200);
    const read = await readConsent(consent.consentId, consent.client.clientId);
    expect(read.status).toBe('pending');
    expect(await auditOf(consent.consentId)).toHaveLength(0);
  });

  it('stays pending when paid if it asks for sign-in', async () => {
    const payer = await signedUpPayer(ctx.app);
    const consent = await consentWithPayment(ctx.app, ctx.database, { requiresAuth: true });
    expect((await payByTransfer(ctx.app, consent, { token: payer.token })).statusCode).toBe(200);
    const read = await readConsent(consent.consentId, consent.client.clientId);
    expect(read.status).toBe('pending');
  });
});
