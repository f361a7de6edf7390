// The operator is told of what payers wait for (docs/operations.md "Alerts and what they mean"):
// GET /metrics counts the complaints to acknowledge and to resolve and the data requests being
// answered, each open or past its target, as the operator moves them and the clock passes.
import { describe, expect, it } from 'vitest';
import { oneTapGrant, payerWithPasskey, provenPayer } from '../testing/identity';
import { consentWithPayment, linkByTestTransfer } from '../testing/payments';
import { testClock, useTestApp } from '../testing/test-app';

const OPERATOR_TOKEN = 'operator-token-for-payer-requests';
const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const clock = testClock('2031-06-02T09:00:00Z');
const HOUR_MS = 60 * 60 * 1_000;
// Data requests stay received until the test's own drain: none is run here.
const ctx = useTestApp({ clock, operatorToken: OPERATOR_TOKEN, payerRights: 'manual' });

/** The open requests of one kind by whether they are overdue, as a scrape reads them. */
async function open(request: string): Promise<{ onTime: number; overdue: number }> {
  const scraped = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: operator });
  expect(scraped.statusCode).toBe(200);
  const value = (overdue: boolean) => {
    const series = `oya_payer_requests_open{request="${request}",overdue="${overdue}"} `;
    const line = scraped.body.split('\n').find((l) => l.startsWith(series));
    return line === undefined ? 0 : Number(line.slice(series.length));
  };
  return { onTime: value(false), overdue: value(true) };
}

describe('oya_payer_requests_open', () => {
  it('counts a complaint to acknowledge, then late, then to resolve once acknowledged', async () => {
    const payer = await payerWithPasskey(ctx.app, ctx.config);
    const accountId = await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer');
    const consent = await consentWithPayment(ctx.app, ctx.database, { requiresAuth: true });
    expect((await oneTapGrant(ctx.app, payer, consent.consentId, accountId)).statusCode).toBe(200);
    expect(await open('complaint_acknowledge')).toEqual({ onTime: 0, overdue: 0 });

    const raised = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/complaints',
      headers: payer.headers,
      payload: {
        paymentId: consent.paymentId,
        category: 'wrong_amount',
        description: 'I was charged more than the order.',
      },
    });
    expect(raised.statusCode, raised.body).toBe(201);
    const { complaintId } = raised.json<{ complaint: { complaintId: string } }>().complaint;
    expect(await open('complaint_acknowledge')).toEqual({ onTime: 1, overdue: 0 });
    expect(await open('complaint_resolve')).toEqual({ onTime: 1, overdue: 0 });

    // Past the acknowledgement's target (COMPLAINT_ACKNOWLEDGE_HOURS, 72), not the resolution's.
    clock.advance(73 * HOUR_MS);
    expect(await open('complaint_acknowledge')).toEqual({ onTime: 0, overdue: 1 });
    expect(await open('complaint_resolve')).toEqual({ onTime: 1, overdue: 0 });

    const acknowledged = await ctx.app.inject({
      method: 'POST',
      url: `/api/operator/complaints/${complaintId}/acknowledge`,
      headers: operator,
      payload: {},
    });
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    expect(await open('complaint_acknowledge')).toEqual({ onTime: 0, overdue: 0 });
    expect(await open('complaint_resolve')).toEqual({ onTime: 1, overdue: 0 });
  });

  it('counts a copy of a payer’s data being prepared, and late past its month', async () => {
    const payer = await provenPayer(ctx.app, ctx.config);
    const asked = await ctx.app.inject({
      method: 'POST',
      url: '/api/users/data-exports',
      headers: payer.headers,
    });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(await open('export')).toEqual({ onTime: 1, overdue: 0 });
    clock.advance(31 * 24 * HOUR_MS);
    expect(await open('export')).toEqual({ onTime: 0, overdue: 1 });
  });
});
