// The operator's list of the payers' complaints not yet resolved (docs/payer-consents.md
// "Complaints"): only with the operator's token, each complaint as the payer sees it, with its
// state and dates as the operator moves it, oldest first (the most urgent), gone once resolved.
import { describe, expect, it } from 'vitest';
import type { TComplaint } from '../../domain/schemas/payer-protections';
import { oneTapGrant, payerWithPasskey } from '../testing/identity';
import { consentWithPayment, linkByTestTransfer } from '../testing/payments';
import { testClock, useTestApp } from '../testing/test-app';

const OPERATOR_TOKEN = 'operator-token-for-the-complaints-list';
const HOUR = 60 * 60 * 1_000;
const clock = testClock('2031-06-02T09:00:00Z');
const ctx = useTestApp({ clock, operatorToken: OPERATOR_TOKEN });

const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

const listAs = (authorization?: string) =>
  ctx.app.inject({
    method: 'GET',
    url: '/api/operator/complaints',
    headers: authorization ? { authorization } : {},
  });

async function operatorList(): Promise<TComplaint[]> {
  const listed = await listAs(operator.authorization);
  expect(listed.statusCode, listed.body).toBe(200);
  return listed.json<{ complaints: TComplaint[] }>().complaints;
}

/** A new payer's complaint about a payment of theirs, raised now. */
async function raisedComplaint(): Promise<TComplaint> {
  const payer = await payerWithPasskey(ctx.app, ctx.config);
  const accountId = await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer');
  const { consentId, paymentId } = await consentWithPayment(ctx.app, ctx.database, {
    requiresAuth: true,
  });
  const granted = await oneTapGrant(ctx.app, payer, consentId, accountId);
  expect(granted.statusCode, granted.body).toBe(200);
  const raised = await ctx.app.inject({
    method: 'POST',
    url: '/api/users/complaints',
    headers: payer.headers,
    payload: { paymentId, category: 'wrong_amount', description: 'Charged twice.' },
  });
  expect(raised.statusCode, raised.body).toBe(201);
  return raised.json<{ complaint: TComplaint }>().complaint;
}

const move = (complaintId: string, edge: 'acknowledge' | 'resolve', note?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/operator/complaints/${complaintId}/${edge}`,
    headers: operator,
    payload: note ? { note } : {},
  });

describe('GET /api/operator/complaints', () => {
  it('is refused without the operator’s token, with a wrong one, and to a payer', async () => {
    const payer = await payerWithPasskey(ctx.app, ctx.config);
    for (const authorization of [
      undefined,
      'Bearer not-the-operator',
      payer.headers.authorization,
    ]) {
      const refused = await listAs(authorization);
      expect(refused.statusCode, refused.body).toBe(401);
      expect(refused.json()).toMatchObject({ error: { code: 'INVALID_ADMIN_TOKEN' } });
    }
  });

  it('lists a new complaint with its state and dates, acknowledged, and not once resolved', async () => {
    const complaint = await raisedComplaint();
    const listed = () =>
      operatorList().then((all) => all.find((c) => c.complaintId === complaint.complaintId));
    expect(await listed()).toEqual(complaint);
    expect(complaint).toMatchObject({
      state: 'received',
      raisedAt: '2031-06-02T09:00:00.000Z',
      acknowledgeBy: '2031-06-05T09:00:00.000Z',
      resolveBy: '2031-06-16T09:00:00.000Z',
      acknowledgedAt: null,
      resolvedAt: null,
    });

    clock.advance(HOUR);
    expect((await move(complaint.complaintId, 'acknowledge')).statusCode).toBe(200);
    expect(await listed()).toEqual({
      ...complaint,
      state: 'acknowledged',
      acknowledgedAt: '2031-06-02T10:00:00.000Z',
    });

    clock.advance(HOUR);
    const resolved = await move(complaint.complaintId, 'resolve', 'The second debit was refunded.');
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(await listed()).toBeUndefined();
  });

  it('lists the open complaints oldest first', async () => {
    const older = await raisedComplaint();
    clock.advance(HOUR);
    const newer = await raisedComplaint();
    clock.advance(HOUR);
    // Acknowledged, the older is still open and still first.
    expect((await move(older.complaintId, 'acknowledge')).statusCode).toBe(200);
    const ours = new Set([older.complaintId, newer.complaintId]);
    const listed = (await operatorList()).filter((c) => ours.has(c.complaintId));
    expect(listed.map((c) => [c.complaintId, c.state])).toEqual([
      [older.complaintId, 'acknowledged'],
      [newer.complaintId, 'received'],
    ]);
  });
});
