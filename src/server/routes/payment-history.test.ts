// A signed-in payer's payments and the merchants they paid (spec §7 history and
// favorites-and-recents): only their own, newest first, failed tries shown as failed.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../testing/test-app';
import { signUp, testPhone } from '../testing/identity';
import { consentWithPayment, encryptedCard, sandboxCard } from '../testing/payments';

const ctx = useTestApp();

async function payAs(token: string, scenario: 'pin_only' | 'declined', amount: number) {
  const consent = await consentWithPayment(ctx.app, ctx.database, { amount, requiresAuth: true });
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/payments/card',
    headers: { authorization: `Bearer ${token}` },
    payload: {
      paymentId: consent.paymentId,
      cardDetails: await encryptedCard(ctx.app, sandboxCard(scenario)),
      saveCard: false,
    },
  });
  expect(response.statusCode).toBe(scenario === 'pin_only' ? 200 : 402);
  return consent;
}

const get = (url: string, token: string) =>
  ctx.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

describe('payment history', () => {
  it('lists the payer’s own payments, newest first, a failed try as failed', async () => {
    const me = await signUp(ctx.app, testPhone());
    const someoneElse = await signUp(ctx.app, testPhone());
    const first = await payAs(me.token, 'pin_only', 10_000);
    const second = await payAs(me.token, 'declined', 20_000);
    await payAs(someoneElse.token, 'pin_only', 30_000);

    const history = await get('/api/payments/history', me.token);
    expect(history.statusCode).toBe(200);
    const listed = history.json<{ payments: Array<Record<string, unknown>> }>().payments;
    expect(listed.map((p) => p.paymentId)).toEqual([second.paymentId, first.paymentId]);
    expect(listed[0]).toMatchObject({ status: 'failed', executedAt: null, amount: 20_000 });
    expect(listed[1]).toMatchObject({
      status: 'executed',
      amount: 10_000,
      narration: 'Order #1042',
      counterpartyName: 'Tola Stores',
    });
  });

  it('answers favourites and recents: merchants paid, at most `limit`', async () => {
    const me = await signUp(ctx.app, testPhone());
    await payAs(me.token, 'pin_only', 10_000);
    await payAs(me.token, 'pin_only', 10_000);
    const answer = await get('/api/payments/favorites-and-recents?limit=1', me.token);
    expect(answer.statusCode).toBe(200);
    const body = answer.json<{ favorites: unknown[]; recents: unknown[] }>();
    expect(body.recents).toEqual([
      {
        accountNumber: null,
        accountName: 'Tola Stores',
        bankName: 'Rubies MFB',
        institutionCode: null,
        logo: null,
      },
    ]);
    expect(body.favorites).toHaveLength(1);
    expect((await get('/api/payments/favorites-and-recents?limit=0', me.token)).statusCode).toBe(
      400,
    );
  });

  it('needs sign-in', async () => {
    const answer = await ctx.app.inject({ method: 'GET', url: '/api/payments/history' });
    expect(answer.statusCode).toBe(401);
  });
});
