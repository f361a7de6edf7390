// The payouts capability of the PaymentProvider port (TPayoutsPort): money sent out, by reference.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TPayoutsPort, TSettlementPort } from '../payments';
import { contractReference as reference, expectReported } from './contract-references';

type TPayee = { institutionCode: string; accountNumber: string; accountName: string };

export type TPayoutsUnderTest = {
  provider: TPayoutsPort;
  /** The provider's settlement report: every payout it made. */
  settlement: TSettlementPort;
  /** An account the provider pays out to. */
  payee: TPayee;
  /** An account the provider cannot pay out to (its bank has no such account). */
  unknownPayee: TPayee;
};

export function payoutsContract(adapter: string, make: () => Promise<TPayoutsUnderTest>) {
  describe(`PaymentProvider port contract, payouts: ${adapter}`, () => {
    let underTest: TPayoutsUnderTest;
    let provider: TPayoutsPort;
    beforeAll(async () => {
      underTest = await make();
      provider = underTest.provider;
    });
    const payOut = (payee: TPayee, ref: string, amount = 370_000) =>
      provider.payOut({
        reference: ref,
        ...payee,
        amount,
        narration: 'Payment request collections released',
      });

    it('pays out to an account once per reference, the same answer however often asked', async () => {
      const ref = reference();
      const answers = await Promise.all([1, 2, 3].map(() => payOut(underTest.payee, ref)));
      expect(answers[0]).toMatchObject({
        kind: 'succeeded',
        providerReference: expect.any(String),
      });
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
      expect(await payOut(underTest.payee, ref)).toEqual(answers[0]);
      // The provider's record: one payout of the reference, however often it was asked.
      await expect
        .poll(() => provider.requeryPayout(ref))
        .toMatchObject({ kind: 'taken', amount: 370_000, givenBack: false });
      await expectReported(underTest.settlement, ref, [
        { channel: 'payout', reference: ref, amount: 370_000, givenBack: false },
      ]);
      // Another reference is another payout.
      const other = await payOut(underTest.payee, reference());
      expect(other).toMatchObject({ kind: 'succeeded' });
      if (other.kind === 'succeeded' && answers[0]?.kind === 'succeeded')
        expect(other.providerReference).not.toBe(answers[0].providerReference);
    });

    it('refuses a payout to an account it does not know', async () => {
      expect(await payOut(underTest.unknownPayee, reference())).toMatchObject({
        kind: 'failed',
        reason: 'account_not_found',
      });
    });

    it('answers a requery of a payout: taken; a late payout after a requery is refused', async () => {
      const ref = reference();
      const paid = await payOut(underTest.payee, ref);
      if (paid.kind !== 'succeeded') throw new Error(`expected a payout, got ${paid.kind}`);
      expect(await provider.requeryPayout(ref)).toEqual({
        kind: 'taken',
        providerReference: paid.providerReference,
        amount: 370_000,
        givenBack: false,
      });
      await expectReported(underTest.settlement, ref, [
        { channel: 'payout', reference: ref, amount: 370_000, givenBack: false },
      ]);
      const never = reference();
      expect(await provider.requeryPayout(never)).toMatchObject({ kind: 'not_taken' });
      expect(await payOut(underTest.payee, never)).toMatchObject({
        kind: 'failed',
        reason: 'expired',
      });
      await expectReported(underTest.settlement, never, []);
    });
  });
}
