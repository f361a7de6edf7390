// A payer's complaints about their payments (docs/payer-consents.md "Complaints"): raised with a
// reference at once and the targets it is held to, listed with its state as the operator moves
// it, one open complaint per payment, only about the payer's own payments, idempotent and
// limited; a reference is never drawn twice, even past one a row already holds.
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { complaintReference } from '../../domain/complaints';
import { errorBody } from '../../domain/errors';
import type { TComplaint } from '../../domain/schemas/payer-protections';
import { consentEvents, paymentComplaints } from '../db/schema';
import { DEFAULT_RATE_LIMITS } from '../rate-limits';
import { oneTapGrant, payerWithPasskey } from '../testing/identity';
import { consentWithPayment, linkByTestTransfer } from '../testing/payments';
import { expectRateLimited } from '../testing/rate-limits';
import { useTestApp, testClock } from '../testing/test-app';

const OPERATOR_TOKEN = 'operator-token-for-complaints';
const clock = testClock('2031-06-02T09:00:00Z');
const ctx = useTestApp({
  clock,
  operatorToken: OPERATOR_TOKEN,
  rateLimits: {
    complaintsPerPayer: DEFAULT_RATE_LIMITS.complaintsPerPayer,
    payerListsPerPayer: DEFAULT_RATE_LIMITS.payerListsPerPayer,
  },
});

type TPayer = Awaited<ReturnType<typeof payerWithPasskey>>;

/**
 * A payer and a payment of theirs: a consent's immediate payment they granted and paid from
 * their linked account (`from` pays again from the same payer's account).
 */
async function payerWithPayment(from?: { payer: TPayer; accountId: string }) {
  const payer = from?.payer ?? (await payerWithPasskey(ctx.app, ctx.config));
  const accountId =
    from?.accountId ?? (await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer'));
  const consent = await consentWithPayment(ctx.app, ctx.database, { requiresAuth: true });
  const granted = await oneTapGrant(ctx.app, payer, consent.consentId, accountId);
  expect(granted.statusCode, granted.body).toBe(200);
  return { payer, accountId, ...consent };
}

const raise = (
  payer: { headers: Record<string, string> },
  paymentId: string,
  options: { key?: string; description?: string } = {},
) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/users/complaints',
    headers: { ...payer.headers, ...(options.key ? { 'idempotency-key': options.key } : {}) },
    payload: {
      paymentId,
      category: 'wrong_amount',
      description: options.description ?? 'I was charged more than the order.',
    },
  });

async function complaintsOf(payer: { headers: Record<string, string> }): Promise<TComplaint[]> {
  const listed = await ctx.app.inject({
    method: 'GET',
    url: '/api/users/complaints',
    headers: payer.headers,
  });
  expect(listed.statusCode, listed.body).toBe(200);
  return listed.json<{ complaints: TComplaint[] }>().complaints;
}

const move = (complaintId: string, edge: 'acknowledge' | 'resolve', note?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/operator/complaints/${complaintId}/${edge}`,
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    payload: note ? { note } : {},
  });

describe('POST /api/users/complaints and GET /api/users/complaints', () => {
  it('raises a complaint with a reference and its targets, lists it, and shows its state as it moves', async () => {
    const { payer, paymentId, consentId, amount } = await payerWithPayment();
    const raised = await raise(payer, paymentId);
    expect(raised.statusCode, raised.body).toBe(201);
    const complaint = raised.json<{ complaint: TComplaint }>().complaint;
    expect(complaint).toEqual({
      complaintId: expect.stringMatching(/^cmp_/),
      reference: expect.stringMatching(/^CP-[2-9A-HJ-NP-Z]{8}$/),
      paymentId,
      consentId,
      merchant: { merchantId: expect.any(String), name: 'Tola Stores' },
      amount,
      category: 'wrong_amount',
      description: 'I was charged more than the order.',
      state: 'received',
      raisedAt: '2031-06-02T09:00:00.000Z',
      acknowledgeBy: '2031-06-05T09:00:00.000Z',
      resolveBy: '2031-06-16T09:00:00.000Z',
      acknowledgedAt: null,
      resolvedAt: null,
      resolution: null,
    });
    expect(await complaintsOf(payer)).toEqual([complaint]);
    // The merchant is told: payment.complaint_raised on the consent's audit, with its webhook.
    const audit = await ctx.database.db
      .select({ type: consentEvents.type })
      .from(consentEvents)
      .where(
        and(
          eq(consentEvents.consentId, consentId),
          eq(consentEvents.type, 'payment.complaint_raised'),
        ),
      );
    expect(audit).toHaveLength(1);

    expect((await move(complaint.complaintId, 'acknowledge')).statusCode).toBe(200);
    expect((await complaintsOf(payer))[0]).toMatchObject({
      state: 'acknowledged',
      acknowledgedAt: clock.now().toISOString(),
    });
    const resolved = await move(complaint.complaintId, 'resolve', 'The extra ₦500 was refunded.');
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect((await complaintsOf(payer))[0]).toMatchObject({
      state: 'resolved',
      resolution: 'The extra ₦500 was refunded.',
    });
    // Resolved, the payment may be complained of again: a new complaint, a new reference.
    const again = await raise(payer, paymentId, { description: 'It happened again.' });
    expect(again.statusCode, again.body).toBe(201);
    const second = again.json<{ complaint: TComplaint }>().complaint;
    expect(second.reference).not.toBe(complaint.reference);
    expect((await complaintsOf(payer)).map((c) => c.complaintId)).toEqual(
      expect.arrayContaining([complaint.complaintId, second.complaintId]),
    );
  });

  it('answers the open complaint (200) when the payment already has one, and replays a key', async () => {
    const { payer, paymentId } = await payerWithPayment();
    const first = await raise(payer, paymentId, { key: 'complaint-key-1' });
    expect(first.statusCode, first.body).toBe(201);
    const replayed = await raise(payer, paymentId, { key: 'complaint-key-1' });
    expect(replayed.statusCode).toBe(201);
    expect(replayed.json()).toEqual(first.json());
    const again = await raise(payer, paymentId, { description: 'Still wrong.' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<{ complaint: TComplaint }>().complaint.complaintId).toBe(
      first.json<{ complaint: TComplaint }>().complaint.complaintId,
    );
    // Two at once make one complaint.
    const { payer: other, paymentId: otherPayment } = await payerWithPayment();
    const both = await Promise.all([raise(other, otherPayment), raise(other, otherPayment)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 201]);
    expect(new Set(both.map((r) => r.json().complaint.complaintId)).size).toBe(1);
    expect(await complaintsOf(other)).toHaveLength(1);
  });

  it('refuses another payer’s payment and an unknown one alike, 404 in the catalogue’s shape', async () => {
    const { paymentId } = await payerWithPayment();
    const stranger = await payerWithPasskey(ctx.app, ctx.config);
    for (const id of [paymentId, 'pay_unknown']) {
      const refused = await raise(stranger, id);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual(errorBody('PAYMENT_NOT_FOUND'));
    }
    expect(await complaintsOf(stranger)).toEqual([]);
    const signedOut = await ctx.app.inject({ method: 'GET', url: '/api/users/complaints' });
    expect(signedOut.statusCode).toBe(401);
    // The operator's moves need the operator's token.
    const notOperator = await ctx.app.inject({
      method: 'POST',
      url: '/api/operator/complaints/cmp_unknown/acknowledge',
      headers: stranger.headers,
      payload: {},
    });
    expect(notOperator.statusCode).toBe(401);
    expect((await move('cmp_unknown', 'acknowledge')).json()).toEqual(
      errorBody('COMPLAINT_NOT_FOUND'),
    );
  });

  it('draws the next reference, never a 500, when a row already holds the one it drew', async () => {
    const { payer, accountId, paymentId } = await payerWithPayment();
    const first = (await raise(payer, paymentId)).json<{ complaint: TComplaint }>().complaint;
    // A complaint that holds the reference the next raise draws (as one written before
    // references came from the sequence could): resolved, so its payment stays open to another.
    const serial = await nextSerial();
    const taken = complaintReference(serial + 1n);
    const [row] = await ctx.database.db
      .select()
      .from(paymentComplaints)
      .where(eq(paymentComplaints.id, first.complaintId));
    if (!row) throw new Error('the first complaint is not there');
    await ctx.database.db
      .insert(paymentComplaints)
      .values({ ...row, id: 'cmp_holds_the_next', reference: taken, state: 'resolved' });

    const { paymentId: next } = await payerWithPayment({ payer, accountId });
    const raised = await raise(payer, next);
    expect(raised.statusCode, raised.body).toBe(201);
    expect(raised.json<{ complaint: TComplaint }>().complaint.reference).toBe(
      complaintReference(serial + 2n),
    );
  });

  it('limits a payer to the complaints of an hour', async () => {
    const { payer, paymentId } = await payerWithPayment();
    const { max, windowMs } = DEFAULT_RATE_LIMITS.complaintsPerPayer;
    for (let i = 0; i < max; i += 1) {
      expect((await raise(payer, paymentId)).statusCode).toBeLessThan(300);
    }
    expectRateLimited(await raise(payer, paymentId), windowMs);
  });

  it('limits a payer’s reads of their complaints and BVN lookups together', async () => {
    const payer = await payerWithPasskey(ctx.app, ctx.config);
    const { max, windowMs } = DEFAULT_RATE_LIMITS.payerListsPerPayer;
    const read = (i: number) =>
      ctx.app.inject({
        method: 'GET',
        url: i % 2 === 0 ? '/api/users/complaints' : '/api/users/bvn-lookups',
        headers: payer.headers,
      });
    for (let i = 0; i < max; i += 1) expect((await read(i)).statusCode).toBe(200);
    expectRateLimited(await read(0), windowMs);
    expectRateLimited(await read(1), windowMs);
  });
});

/** Takes the sequence's next serial, as a raise would. */
async function nextSerial(): Promise<bigint> {
  const result = await ctx.database.db.execute(
    sql`select nextval('payment_complaint_serials')::text as serial`,
  );
  const [row] = (result as { rows: Array<{ serial: string }> }).rows;
  if (!row) throw new Error('no serial');
  return BigInt(row.serial);
}
