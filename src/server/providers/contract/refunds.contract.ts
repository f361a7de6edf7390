// The refunds capability of the PaymentProvider port (TRefundsPort): a merchant's refunds, whole
// or in part, once per reference, asked about by it with the charge it names and when it was
// asked for.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TRefundRequery, TRefundRequest, TRefundsPort } from '../payments';
import { contractReference as reference } from './contract-references';

export type TRefundsUnderTest = {
  provider: TRefundsPort;
  /** A card charge of `amount` kobo the provider took just now: what a refund gives back from. */
  paidCardCharge(amount: number): Promise<{ providerReference: string }>;
};

export function refundsContract(adapter: string, make: () => Promise<TRefundsUnderTest>) {
  describe(`PaymentProvider port contract, refunds: ${adapter}`, () => {
    let underTest: TRefundsUnderTest;
    let provider: TRefundsPort;
    beforeAll(async () => {
      underTest = await make();
      provider = underTest.provider;
    });
    const refundOf = (providerReference: string, amount: number, ref = reference()) => ({
      reference: ref,
      providerReference,
      channel: 'card' as const,
      amount,
      sender: null,
      reason: 'Returned goods',
      createdAt: new Date(),
    });
    /** Asked about as the app asks: what the refund was asked for with, and when. */
    const requeryOf = (
      { reference: ref, providerReference, channel }: TRefundRequest,
      createdAt: Date,
    ): TRefundRequery => ({ reference: ref, providerReference, channel, createdAt });

    it('gives back part of a charge, then the rest, each once per reference, each processed when asked about', async () => {
      const { providerReference } = await underTest.paidCardCharge(500_000);
      const part = refundOf(providerReference, 200_000);
      const partAsked = new Date();
      const first = await provider.refund(part);
      expect(first.kind).not.toBe('failed');
      // Asked again with its reference: the same refund, not a second one.
      expect((await provider.refund(part)).providerReference).toBe(first.providerReference);
      await expect
        .poll(() => provider.requeryRefund(requeryOf(part, partAsked)))
        .toEqual({ kind: 'processed', providerReference: first.providerReference });
      const rest = refundOf(providerReference, 300_000);
      const restAsked = new Date();
      expect((await provider.refund(rest)).kind).not.toBe('failed');
      await expect
        .poll(() => provider.requeryRefund(requeryOf(rest, restAsked)))
        .toMatchObject({ kind: 'processed' });
      // The charge's own record counts them: the part given back twice would have left no room
      // for the rest, and the part once and the rest leave nothing.
      expect(await provider.refund(refundOf(providerReference, 1))).toMatchObject({
        kind: 'failed',
      });
    });

    it('refuses to give back more than the charge has left', async () => {
      const { providerReference } = await underTest.paidCardCharge(250_000);
      await provider.refund(refundOf(providerReference, 200_000));
      expect(await provider.refund(refundOf(providerReference, 100_000))).toMatchObject({
        kind: 'failed',
      });
    });

    it('answers failed for a refund never asked for', async () => {
      const { providerReference } = await underTest.paidCardCharge(100_000);
      const never = requeryOf(refundOf(providerReference, 100_000), new Date());
      expect(await provider.requeryRefund(never)).toMatchObject({ kind: 'failed' });
    });
  });
}
