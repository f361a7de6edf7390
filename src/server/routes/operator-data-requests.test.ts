// The operator's list of every payer's requests about their data (docs/payer-rights.md "For the
// operator"): only with the operator's token, each request with its payer, kind, state and
// dates, the open ones first by the date the law's month makes them due, then the answered ones,
// newest first.
import { describe, expect, it } from 'vitest';
import type { TPayerRightsRequest } from '../../domain/schemas/payer-rights';
import { EXPORT_JOB } from '../services/payer-rights/requests';
import { payerWithPasskey } from '../testing/identity';
import { testClock, useTestApp } from '../testing/test-app';

const OPERATOR_TOKEN = 'operator-token-for-data-requests';
const HOUR = 60 * 60 * 1_000;
const clock = testClock('2031-05-31T09:00:00Z');
// The copies' job runs when a test drains it: a request stays open until then.
const ctx = useTestApp({ clock, operatorToken: OPERATOR_TOKEN, payerRights: 'manual' });

type TOperatorRequest = TPayerRightsRequest & { payerId: string };

const listAs = (authorization?: string) =>
  ctx.app.inject({
    method: 'GET',
    url: '/api/operator/data-requests',
    headers: authorization ? { authorization } : {},
  });

async function operatorList(): Promise<TOperatorRequest[]> {
  const listed = await listAs(`Bearer ${OPERATOR_TOKEN}`);
  expect(listed.statusCode, listed.body).toBe(200);
  return listed.json<{ requests: TOperatorRequest[] }>().requests;
}

/** A new payer's request for a copy of their data, received now. */
async function askedCopy(): Promise<TOperatorRequest> {
  const payer = await payerWithPasskey(ctx.app, ctx.config);
  const asked = await ctx.app.inject({
    method: 'POST',
    url: '/api/users/data-exports',
    headers: payer.headers,
  });
  expect(asked.statusCode, asked.body).toBe(202);
  return { ...asked.json<{ request: TPayerRightsRequest }>().request, payerId: payer.userId };
}

describe('GET /api/operator/data-requests', () => {
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

  it('lists a new request with its payer, kind, state and dates, then as answered', async () => {
    const asked = await askedCopy();
    const open = (await operatorList()).find((r) => r.requestId === asked.requestId);
    expect(open).toEqual({
      requestId: asked.requestId,
      payerId: asked.payerId,
      kind: 'export',
      status: 'received',
      receivedAt: '2031-05-31T09:00:00.000Z',
      // The law's month: 31 May → 30 June, the last day June has.
      dueAt: '2031-06-30T09:00:00.000Z',
      doneAt: null,
      expiresAt: null,
      kept: null,
    });

    clock.advance(HOUR);
    await ctx.context.jobs.drain([EXPORT_JOB]);
    const done = (await operatorList()).find((r) => r.requestId === asked.requestId);
    expect(done).toMatchObject({
      status: 'done',
      receivedAt: '2031-05-31T09:00:00.000Z',
      doneAt: '2031-05-31T10:00:00.000Z',
      expiresAt: expect.any(String),
    });
  });

  it('lists the open requests first, soonest due first, then the answered ones, newest first', async () => {
    const answeredFirst = await askedCopy();
    clock.advance(HOUR);
    const answeredLater = await askedCopy();
    await ctx.context.jobs.drain([EXPORT_JOB]);
    clock.advance(HOUR);
    const openFirst = await askedCopy();
    clock.advance(HOUR);
    const openLater = await askedCopy();

    const ours = new Set(
      [answeredFirst, answeredLater, openFirst, openLater].map((r) => r.requestId),
    );
    const listed = (await operatorList()).filter((r) => ours.has(r.requestId));
    expect(listed.map((r) => [r.requestId, r.status])).toEqual([
      [openFirst.requestId, 'received'],
      [openLater.requestId, 'received'],
      [answeredLater.requestId, 'done'],
      [answeredFirst.requestId, 'done'],
    ]);
  });
});
