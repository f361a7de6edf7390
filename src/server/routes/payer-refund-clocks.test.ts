// A refund's expected date (docs/payer-consents.md "Refunds"): the payer reads, beside a refund
// still pending, the date it should reach them by (domain/refund-clocks.ts), on their list of
// consents and on the SMS receipt's page; a refund given back has none.
import { describe, expect, it, vi } from 'vitest';
import { addWorkingDays, DEBIT_REVERSAL_WORKING_DAYS } from '../../domain/refund-clocks';
import type { TPayerRefund } from '../../domain/schemas/refunds';
import { usable } from '../providers/off';
import { receiptToken } from '../services/consents/consent-receipts';
import { oneTapGrant, payerWithPasskey } from '../testing/identity';
import { consentWithPayment, linkByTestTransfer } from '../testing/payments';
import { useTestApp, testClock } from '../testing/test-app';

// A Thursday in Lagos: three working days on is the Tuesday after the weekend.
const clock = testClock('2031-06-05T10:00:00Z');
const ctx = useTestApp({ clock });

type TWithRefunds = { consentId: string; refunds: TPayerRefund[] };

describe('a refund’s expected date, as the payer reads it', () => {
  it('is on the payer’s consents and the receipt while the refund is pending, and gone once it is back', async () => {
    const payer = await payerWithPasskey(ctx.app, ctx.config);
    const accountId = await linkByTestTransfer(ctx.app, payer.token, 'links_by_test_transfer');
    const consent = await consentWithPayment(ctx.app, ctx.database, { requiresAuth: true });
    const granted = await oneTapGrant(ctx.app, payer, consent.consentId, accountId);
    expect(granted.statusCode, granted.body).toBe(200);

    // The provider's answer is lost: the refund stays pending until it is asked again.
    const provider = usable(ctx.context.providers.payments.refunds);
    const real = provider.refund.bind(provider);
    const lost = vi.spyOn(provider, 'refund').mockImplementationOnce(async (request) => {
      await real(request);
      throw new Error('connection reset');
    });
    const asked = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/payments/${consent.paymentId}/refunds`,
      headers: { authorization: consent.client.authorization },
      payload: { amount: 50_000 },
    });
    lost.mockRestore();
    expect(asked.statusCode, asked.body).toBe(202);

    const expected = {
      paymentId: consent.paymentId,
      amount: 50_000,
      status: 'pending',
      channel: 'debit',
      expectedBy: addWorkingDays(clock.now(), DEBIT_REVERSAL_WORKING_DAYS),
    };
    expect(expected.expectedBy).toBe('2031-06-10');

    const listed = await ctx.app.inject({
      method: 'GET',
      url: '/api/users/consents',
      headers: payer.headers,
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const mine = listed
      .json<{ consents: TWithRefunds[] }>()
      .consents.find((c) => c.consentId === consent.consentId);
    expect(mine?.refunds).toEqual([expect.objectContaining(expected)]);

    const token = await receiptToken(ctx.database.db, ctx.config, consent.consentId);
    const receipt = await ctx.app.inject({ method: 'GET', url: `/api/consent-receipts/${token}` });
    expect(receipt.statusCode, receipt.body).toBe(200);
    expect(receipt.json<{ consent: TWithRefunds }>().consent.refunds).toEqual([
      expect.objectContaining(expected),
    ]);

    // Given back (the provider asked again by the reconciler), it is waited for no more.
    clock.advance(6 * 60_000);
    expect(await ctx.app.reconciler.runDue()).toMatchObject({ merchantRefunds: { processed: 1 } });
    const after = await ctx.app.inject({ method: 'GET', url: `/api/consent-receipts/${token}` });
    expect(after.json<{ consent: TWithRefunds }>().consent.refunds).toEqual([
      expect.objectContaining({ status: 'processed', channel: 'debit', expectedBy: null }),
    ]);
  });
});
