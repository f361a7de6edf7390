// The payer's own consents (docs/payer-consents.md): the list of what a signed-in payer granted,
// newest first and paged; the passkey-signed revocation, bound to its consent and purpose; in one
// transaction the consent revoked, its future payments cancelled so the runner never debits them,
// and consent.revoked in the merchant's outbox, once.
import { createHash } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { grantSigningMessage } from '../../domain/schemas/auth';
import { addWorkingDays, DEBIT_REVERSAL_WORKING_DAYS } from '../../domain/refund-clocks';
import { revocationSigningMessage } from '../../domain/schemas/payer-consents';
import type { TPayerConsent } from '../../domain/schemas/payer-consents';
import {
  consentEvents,
  consents,
  futurePaymentCollections,
  merchantEvents,
  payments,
  sandboxDebits,
  smsQueue,
  webhookDeliveries,
} from '../db/schema';
import { runCollections, scheduleAndNotify } from '../services/payments/collection-runner';
import { claimDueCollections, collectClaimed } from '../services/payments/future-collections';
import { createTestClient, testClock, useTestApp } from '../testing/test-app';
import { payerWithPasskey, signedGrant } from '../testing/identity';
import { linkByTestTransfer } from '../testing/payments';
import type { SoftAuthenticator } from '../testing/soft-authenticator';

const DAY = 24 * 60 * 60 * 1_000;

const clock = testClock('2031-03-02T09:00:00Z');
// Its webhook endpoint is this machine's discard port (nothing is delivered here): the
// operator's flag lets a webhook point there.
const ctx = useTestApp({
  clock,
  webhookDelivery: 'manual',
  env: { WEBHOOKS_ALLOW_PRIVATE: 'on' },
});

type TPayer = Awaited<ReturnType<typeof payerWithPasskey>> & { accountId: string };

/** A signed-in payer with a passkey and a linked account (test transfer) to repay from. */
async function aPayer(countsSignatures = true): Promise<TPayer> {
  const payer = await payerWithPasskey(ctx.app, ctx.config, countsSignatures);
  return {
    ...payer,
    accountId: await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer'),
  };
}

type TAsk = {
  /** Future payments: kobo and days from now until due (none: 'As needed'). */
  future?: Array<{ amount: number; dueInDays?: number; narration?: string }>;
  dataSharing?: Record<string, boolean>;
  merchantName?: string;
};

/** A new merchant's consent asking for `ask`, granted by `payer` from their linked account. */
async function grantedBy(payer: TPayer, ask: TAsk) {
  const merchant = await createTestClient(ctx.database, { name: ask.merchantName ?? 'Ada Foods' });
  const future = ask.future ?? [];
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: merchant.authorization },
    payload: {
      payments: future.map((f) => ({
        type: 'future',
        amount: f.amount,
        narration: f.narration ?? 'Meal plan',
        ...(f.dueInDays === undefined
          ? { amountType: 'variable' }
          : { dueDate: new Date(clock.now().getTime() + f.dueInDays * DAY).toISOString() }),
      })),
      ...(ask.dataSharing ? { dataSharing: ask.dataSharing } : {}),
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
    ...(future.length > 0
      ? {
          futurePayments: {
            granted: true,
            selectedAccounts: [payer.accountId],
            paymentMethods: [{ type: 'account' as const, accountId: payer.accountId }],
          },
        }
      : {}),
    ...(ask.dataSharing
      ? { dataSharing: { granted: true, dataTypes: Object.keys(ask.dataSharing) } }
      : {}),
  };
  const granted = await ctx.app.inject({
    method: 'POST',
    url: `/api/consent/${consentId}/grant`,
    headers: payer.headers,
    payload: await signedGrant(ctx.app, payer.soft, payer.token, consentId, data),
  });
  expect(granted.statusCode, granted.body).toBe(200);
  expect(granted.json()).toMatchObject({ status: 'granted' });
  return { consentId, merchant };
}

const list = (payer: { headers: Record<string, string> }, query = '') =>
  ctx.app.inject({ method: 'GET', url: `/api/users/consents${query}`, headers: payer.headers });

const challenge = (payer: { headers: Record<string, string> }, consentId: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/users/consents/${consentId}/revocation-challenges`,
    headers: payer.headers,
  });

/** The revoke body as the page sends it: a nonce for this consent, signed by the passkey. */
async function signedRevocation(
  payer: TPayer,
  consentId: string,
  soft: SoftAuthenticator = payer.soft,
) {
  const issued = await challenge(payer, consentId);
  expect(issued.statusCode, issued.body).toBe(200);
  const { nonce } = issued.json<{ nonce: string }>();
  return { nonce, response: soft.assert(digestOf(revocationSigningMessage({ consentId, nonce }))) };
}

const digestOf = (message: string) => createHash('sha256').update(message).digest('base64url');

const revoke = (payer: { headers: Record<string, string> }, consentId: string, payload: object) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/users/consents/${consentId}/revoke`,
    headers: payer.headers,
    payload,
  });

async function revokedEvents(consentId: string) {
  return ctx.database.db
    .select()
    .from(merchantEvents)
    .where(
      and(eq(merchantEvents.consentId, consentId), eq(merchantEvents.type, 'consent.revoked')),
    );
}

async function paymentsOf(consentId: string) {
  return ctx.database.db
    .select()
    .from(payments)
    .where(eq(payments.consentId, consentId))
    .orderBy(payments.position);
}

describe('GET /api/users/consents', () => {
  it('needs a signed-in payer', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/users/consents' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ success: false, error: { code: expect.any(String) } });
  });

  it('lists what the payer granted: merchant, payments, repayment account, next debits, data', async () => {
    const payer = await aPayer();
    const { consentId, merchant } = await grantedBy(payer, {
      merchantName: 'FitLife Gym',
      future: [
        { amount: 500_000, dueInDays: 60, narration: 'May' },
        { amount: 250_000, narration: 'Top-ups' },
        { amount: 500_000, dueInDays: 30, narration: 'April' },
      ],
      dataSharing: { bvnData: true },
    });
    const response = await list(payer);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ consents: TPayerConsent[]; nextCursor: string | null }>();
    expect(body.nextCursor).toBeNull();
    expect(body.consents).toHaveLength(1);
    const [listed] = body.consents;
    expect(listed).toMatchObject({
      consentId,
      status: 'granted',
      grantedAt: clock.now().toISOString(),
      revokedAt: null,
      merchant: { merchantId: merchant.merchantId, name: 'FitLife Gym' },
      dataSharing: { bvnData: true },
      form: null,
      repaymentAccounts: [
        {
          accountId: payer.accountId,
          position: 0,
          accountNumber: expect.stringMatching(/^\*{4}\d{4}$/),
          mandateState: 'active',
        },
      ],
    });
    expect(listed?.payments.map((p) => [p.narration, p.status])).toEqual([
      ['May', 'pending'],
      ['Top-ups', 'pending'],
      ['April', 'pending'],
    ]);
    // Soonest first, 'As needed' last.
    expect(listed?.upcomingDebits.map((d) => d.narration)).toEqual(['April', 'May', 'Top-ups']);
  });

  it('lists a debit given back after cancelling beside the refunds, with the date it is expected by', async () => {
    const payer = await aPayer();
    const { consentId } = await grantedBy(payer, { future: [{ amount: 40_000, dueInDays: 5 }] });
    const [payment] = await paymentsOf(consentId);
    // As the runner leaves a collection whose debit the bank made after it was cancelled, once it
    // gave the debit back (future-collections.ts giveBack).
    const [givenBack] = await ctx.database.db
      .insert(futurePaymentCollections)
      .values({
        id: `col_${payment!.id}`,
        paymentId: payment!.id,
        consentId,
        trigger: 'schedule',
        amount: 40_000,
        status: 'cancelled',
        dueAt: clock.now(),
        failureReason: 'future_payments_cancelled',
        accountId: payer.accountId,
        providerReference: 'sandbox-debit-1',
        completedAt: clock.now(),
      })
      .returning();
    const response = await list(payer);
    expect(response.statusCode, response.body).toBe(200);
    const [listed] = response.json<{ consents: TPayerConsent[] }>().consents;
    expect(listed?.refunds).toEqual([
      {
        refundId: givenBack!.id,
        paymentId: payment!.id,
        amount: 40_000,
        status: 'processed',
        createdAt: clock.now().toISOString(),
        kind: 'reversal',
        channel: 'debit',
        expectedBy: addWorkingDays(clock.now(), DEBIT_REVERSAL_WORKING_DAYS),
      },
    ]);
  });

  it('shows one payer nothing of another payer’s consents', async () => {
    const owner = await aPayer();
    await grantedBy(owner, { future: [{ amount: 10_000, dueInDays: 5 }] });
    const stranger = await aPayer();
    const response = await list(stranger);
    expect(response.json()).toEqual({ success: true, consents: [], nextCursor: null });
  });

  it('pages newest grant first with a cursor, and refuses a cursor it did not give', async () => {
    const payer = await aPayer();
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      ids.push((await grantedBy(payer, { dataSharing: { ninData: true } })).consentId);
      clock.advance(60_000);
    }
    const first = await list(payer, '?limit=2');
    const page1 = first.json<{ consents: TPayerConsent[]; nextCursor: string | null }>();
    expect(page1.consents.map((c) => c.consentId)).toEqual([ids[2], ids[1]]);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const second = await list(payer, `?limit=2&cursor=${page1.nextCursor}`);
    const page2 = second.json<{ consents: TPayerConsent[]; nextCursor: string | null }>();
    expect(page2).toMatchObject({ nextCursor: null });
    expect(page2.consents.map((c) => c.consentId)).toEqual([ids[0]]);

    const bad = await list(payer, '?cursor=not-one-of-ours');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_FAILED' } });
  });
});

describe('POST /api/users/consents/{id}/revoke', () => {
  it('revokes with the passkey: future payments cancelled, consent.revoked in the outbox, reads say revoked', async () => {
    const payer = await aPayer();
    const { consentId, merchant } = await grantedBy(payer, {
      future: [
        { amount: 300_000, dueInDays: 10 },
        { amount: 300_000, dueInDays: 40 },
      ],
    });
    const hook = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { authorization: merchant.authorization },
      payload: { url: 'http://127.0.0.1:9/hooks' },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    clock.advance(5 * 60_000);
    const body = await signedRevocation(payer, consentId);

    const response = await revoke(payer, consentId, body);
    expect(response.statusCode, response.body).toBe(200);
    const revokedAt = clock.now().toISOString();
    expect(response.json()).toMatchObject({
      success: true,
      consent: { consentId, status: 'revoked', revokedAt, upcomingDebits: [] },
    });
    expect((await paymentsOf(consentId)).map((p) => p.status)).toEqual(['cancelled', 'cancelled']);

    const [event, ...more] = await revokedEvents(consentId);
    expect(more).toHaveLength(0);
    expect(event?.data).toEqual({
      consentId,
      revokedAt,
      cancelledPaymentIds: (await paymentsOf(consentId)).map((p) => p.id),
      reference: null,
      metadata: {},
    });
    const deliveries = await ctx.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventId, event!.id));
    expect(deliveries).toHaveLength(1);
    const [audit] = await ctx.database.db
      .select()
      .from(consentEvents)
      .where(
        and(eq(consentEvents.consentId, consentId), eq(consentEvents.type, 'consent.revoked')),
      );
    expect(audit).toMatchObject({
      actor: expect.stringMatching(/^payer:/),
      data: {
        signature: {
          digest: digestOf(revocationSigningMessage({ consentId, nonce: body.nonce })),
          credentialId: expect.any(String),
        },
      },
    });

    // The merchant's read and the consent page's read.
    const merchantRead = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/consents/${consentId}`,
      headers: { authorization: merchant.authorization },
    });
    expect(merchantRead.statusCode, merchantRead.body).toBe(200);
    expect(merchantRead.json()).toMatchObject({
      consent: { consentId, status: 'revoked', revokedAt },
    });
    const pageRead = await ctx.app.inject({
      method: 'GET',
      url: `/api/consent/${consentId}?clientId=${merchant.clientId}`,
    });
    expect(pageRead.json()).toMatchObject({ consent: { status: 'revoked' } });

    // The list keeps it, revoked.
    const listed = (await list(payer)).json<{ consents: TPayerConsent[] }>().consents;
    expect(listed.find((c) => c.consentId === consentId)).toMatchObject({
      status: 'revoked',
      revokedAt,
    });

    // Twice: the same answer, nothing more written.
    clock.advance(60_000);
    const again = await revoke(payer, consentId, body);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(response.json());
    expect(await revokedEvents(consentId)).toHaveLength(1);
  });

  it('answers another payer’s consent, or an unknown one, as not found', async () => {
    const owner = await aPayer();
    const { consentId } = await grantedBy(owner, { future: [{ amount: 10_000, dueInDays: 5 }] });
    const stranger = await aPayer();
    const issued = await challenge(stranger, consentId);
    expect(issued.statusCode).toBe(404);
    expect(issued.json()).toMatchObject({ error: { code: 'PAYER_CONSENT_NOT_FOUND' } });
    // Even with a revocation the owner signed.
    const ownerSigned = await signedRevocation(owner, consentId);
    const refused = await revoke(stranger, consentId, ownerSigned);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({
      success: false,
      error: { code: 'PAYER_CONSENT_NOT_FOUND', message: 'No consent of yours has this id' },
    });
    expect((await revoke(stranger, 'cns_unknown', ownerSigned)).statusCode).toBe(404);
    const [row] = await ctx.database.db.select().from(consents).where(eq(consents.id, consentId));
    expect(row?.status).toBe('granted');
  });

  it('refuses a signature made for another consent, for a grant, or over another message', async () => {
    const payer = await aPayer();
    const first = await grantedBy(payer, { future: [{ amount: 10_000, dueInDays: 5 }] });
    const second = await grantedBy(payer, { future: [{ amount: 10_000, dueInDays: 5 }] });
    const expectRefused = async (payload: object) => {
      const response = await revoke(payer, second.consentId, payload);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({
        error: { code: 'REVOCATION_SIGNATURE_INVALID' },
      });
    };

    // Signed to revoke the first consent.
    await expectRefused(await signedRevocation(payer, first.consentId));
    // A grant's nonce and signature for the second consent.
    const grantChallenge = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/grant-challenges',
      headers: payer.headers,
      payload: { consentId: second.consentId },
    });
    const grantNonce = grantChallenge.json<{ nonce: string }>().nonce;
    await expectRefused({
      nonce: grantNonce,
      response: payer.soft.assert(
        digestOf(
          grantSigningMessage({ consentId: second.consentId, nonce: grantNonce, payload: {} }),
        ),
      ),
    });
    // A revocation nonce of the second consent with the grant's message signed over it.
    const issued = await challenge(payer, second.consentId);
    const nonce = issued.json<{ nonce: string }>().nonce;
    await expectRefused({
      nonce,
      response: payer.soft.assert(
        digestOf(grantSigningMessage({ consentId: second.consentId, nonce, payload: {} })),
      ),
    });
    // Another payer's passkey over the right message.
    const other = await aPayer();
    await expectRefused({
      nonce,
      response: other.soft.assert(
        digestOf(revocationSigningMessage({ consentId: second.consentId, nonce })),
      ),
    });

    expect(await revokedEvents(first.consentId)).toHaveLength(0);
    expect(await revokedEvents(second.consentId)).toHaveLength(0);
    // The right signature still revokes it: the refusals did not use its nonce.
    const signed = {
      nonce,
      response: payer.soft.assert(
        digestOf(revocationSigningMessage({ consentId: second.consentId, nonce })),
      ),
    };
    expect((await revoke(payer, second.consentId, signed)).statusCode).toBe(200);
    expect(await revokedEvents(second.consentId)).toHaveLength(1);
  });

  it('answers 409 in the catalogue shape for a consent of theirs that is no longer granted', async () => {
    const payer = await aPayer();
    const { consentId } = await grantedBy(payer, { future: [{ amount: 10_000, dueInDays: 5 }] });
    const signed = await signedRevocation(payer, consentId);
    // A state other than granted or revoked (a failure on the merchant's side).
    await ctx.database.db
      .update(consents)
      .set({ status: 'failed' })
      .where(eq(consents.id, consentId));
    const response = await revoke(payer, consentId, signed);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      success: false,
      error: {
        code: 'CONSENT_NOT_REVOCABLE',
        message: 'Only a granted consent can be revoked; this one is not active',
      },
    });
    expect((await challenge(payer, consentId)).statusCode).toBe(409);
    expect(await revokedEvents(consentId)).toHaveLength(0);
  });

  it(
    'revokes once when two revocations race: both answered revoked, one event',
    { tags: ['postgres'] },
    async () => {
      // A synced passkey (counter 0), so both signatures verify and the race is the consent's.
      const payer = await aPayer(false);
      const { consentId } = await grantedBy(payer, { future: [{ amount: 10_000, dueInDays: 5 }] });
      const one = await signedRevocation(payer, consentId);
      const two = await signedRevocation(payer, consentId);
      const answers = await Promise.all([
        revoke(payer, consentId, one),
        revoke(payer, consentId, two),
        revoke(payer, consentId, one),
      ]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
      for (const answer of answers) {
        expect(answer.json()).toMatchObject({ consent: { status: 'revoked' } });
      }
      expect(await revokedEvents(consentId)).toHaveLength(1);
      const audits = await ctx.database.db
        .select()
        .from(consentEvents)
        .where(
          and(eq(consentEvents.consentId, consentId), eq(consentEvents.type, 'consent.revoked')),
        );
      expect(audits).toHaveLength(1);
    },
  );
});

describe('a revoked consent is never collected', () => {
  async function bankDebitsOf(paymentId: string) {
    const [collection] = await ctx.database.db
      .select()
      .from(futurePaymentCollections)
      .where(eq(futurePaymentCollections.paymentId, paymentId));
    if (!collection) return { collection, debits: [] };
    const debits = await ctx.database.db
      .select()
      .from(sandboxDebits)
      .where(like(sandboxDebits.reference, `${collection.id}.%`));
    return { collection, debits: debits.filter((d) => d.outcome === 'succeeded') };
  }

  it('cancels a collection scheduled before the revocation; the runner debits only the consent still granted', async () => {
    const payer = await aPayer();
    const kept = await grantedBy(payer, { future: [{ amount: 70_000, dueInDays: 0.5 }] });
    const revoked = await grantedBy(payer, { future: [{ amount: 80_000, dueInDays: 0.5 }] });
    const [keptPayment] = await paymentsOf(kept.consentId);
    const [revokedPayment] = await paymentsOf(revoked.consentId);

    // Due within a day: the run makes both collections and sends their notices.
    await runCollections(ctx.context);
    expect((await bankDebitsOf(revokedPayment!.id)).collection?.status).toBe('pending');

    expect(
      (await revoke(payer, revoked.consentId, await signedRevocation(payer, revoked.consentId)))
        .statusCode,
    ).toBe(200);
    expect((await bankDebitsOf(revokedPayment!.id)).collection).toMatchObject({
      status: 'cancelled',
      failureReason: 'consent_revoked',
    });

    clock.advance(DAY);
    const run = await runCollections(ctx.context);
    expect(run).toMatchObject({ collected: 1, failed: 0 });
    expect((await bankDebitsOf(keptPayment!.id)).debits).toHaveLength(1);
    expect((await bankDebitsOf(revokedPayment!.id)).debits).toHaveLength(0);
    expect((await paymentsOf(revoked.consentId))[0]?.status).toBe('cancelled');
    expect((await paymentsOf(kept.consentId))[0]?.status).toBe('executed');
    const revokedTypes = (
      await ctx.database.db
        .select({ type: merchantEvents.type })
        .from(merchantEvents)
        .where(eq(merchantEvents.consentId, revoked.consentId))
        .orderBy(merchantEvents.id)
    ).map((e) => e.type);
    expect(revokedTypes).toEqual(['consent.granted', 'mandate.active', 'consent.revoked']);
  });

  it('never schedules a payment of a consent revoked before its collection was made', async () => {
    const payer = await aPayer();
    const { consentId } = await grantedBy(payer, { future: [{ amount: 90_000, dueInDays: 5 }] });
    const [payment] = await paymentsOf(consentId);
    expect(
      (await revoke(payer, consentId, await signedRevocation(payer, consentId))).statusCode,
    ).toBe(200);
    clock.advance(6 * DAY);
    await runCollections(ctx.context);
    expect((await bankDebitsOf(payment!.id)).collection).toBeUndefined();
  });

  it('ends a collection claimed before the revocation without asking the bank', async () => {
    const payer = await aPayer();
    const { consentId } = await grantedBy(payer, {
      future: [{ amount: 60_000, dueInDays: 0.005 }],
    });
    const [payment] = await paymentsOf(consentId);
    // A runner has claimed it (due now, its notice sent the lead before), and has not asked the
    // bank yet.
    await scheduleAndNotify(ctx.context);
    const [noticed] = await ctx.database.db
      .update(futurePaymentCollections)
      .set({ notifiedAt: new Date(clock.now().getTime() - DAY), dueAt: clock.now() })
      .where(eq(futurePaymentCollections.paymentId, payment!.id))
      .returning({ smsId: futurePaymentCollections.noticeSmsId });
    expect(noticed?.smsId).toBeTruthy();
    await ctx.database.db
      .update(smsQueue)
      .set({ sentAt: new Date(clock.now().getTime() - DAY) })
      .where(eq(smsQueue.id, noticed!.smsId!));
    const claimed = (await claimDueCollections(ctx.database.db, clock.now(), DAY)).find(
      (row) => row.paymentId === payment!.id,
    );
    expect(claimed?.status).toBe('collecting');
    const body = await signedRevocation(payer, consentId);
    expect((await revoke(payer, consentId, body)).statusCode).toBe(200);
    const ended = await collectClaimed(ctx.context, claimed!);
    expect(ended).toMatchObject({ status: 'cancelled', failureReason: 'consent_revoked' });
    expect((await bankDebitsOf(payment!.id)).debits).toHaveLength(0);
    expect((await paymentsOf(consentId))[0]?.status).toBe('cancelled');
  });
});
