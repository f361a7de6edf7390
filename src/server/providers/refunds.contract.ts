// The contract of the refunds capability of the PaymentProvider port (TRefundsPort): every
// adapter that gives refunds passes this suite; the sandbox runs it in
// sandbox/sandbox-refunds.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TPaymentProvider, TTransferSender } from './payments';

export type TRefundsUnderTest = {
  provider: Pick<TPaymentProvider, 'refund' | 'requeryRefund' | 'settlementReport'>;
  /** A card charge of `amount` kobo the provider took: its reference for the charge. */
  chargedCard(amount: number): Promise<string>;
  /** A debit of `amount` kobo the provider took: its reference for the debit. */
  debitedAccount(amount: number): Promise<string>;
  /** A transfer of `amount` kobo the provider received: its reference, and who sent it. */
  receivedTransfer(amount: number): Promise<{ providerReference: string; sender: TTransferSender }>;
};

let seq = 0;
const reference = () => `rfd_contract_${Date.now()}_${(seq += 1)}`;

export function refundsContract(adapter: string, make: () => Promise<TRefundsUnderTest>) {
  describe(`Refunds port contract: ${adapter}`, () => {
    let underTest: TRefundsUnderTest;
    beforeAll(async () => {
      underTest = await make();
    });
    const cardRefund = (providerReference: string, amount: number, ref = reference()) =>
      underTest.provider.refund({
        reference: ref,
        providerReference,
        channel: 'card',
        amount,
        sender: null,
        reason: 'Order cancelled',
      });

    it('refunds a card charge in parts up to what it took, and refuses a part beyond it', async () => {
      const charge = await underTest.chargedCard(100_000);
      expect(await cardRefund(charge, 60_000)).toMatchObject({ kind: 'processed' });
      expect(await cardRefund(charge, 40_000)).toMatchObject({ kind: 'processed' });
      expect(await cardRefund(charge, 1)).toMatchObject({ kind: 'failed' });
    });

    it('answers a repeated refund with the first answer, and gives back once', async () => {
      const charge = await underTest.chargedCard(100_000);
      const ref = reference();
      const first = await cardRefund(charge, 100_000, ref);
      expect(first).toMatchObject({ kind: 'processed' });
      expect(await cardRefund(charge, 100_000, ref)).toEqual(first);
      const lines = (await underTest.provider.settlementReport()).filter(
        (line) => line.channel === 'refund' && line.reference === ref,
      );
      expect(lines).toEqual([
        { channel: 'refund', reference: ref, amount: 100_000, givenBack: false },
      ]);
    });

    it('puts part of a debit back, and pays a transfer back to its sender', async () => {
      const debit = await underTest.debitedAccount(80_000);
      expect(
        await underTest.provider.refund({
          reference: reference(),
          providerReference: debit,
          channel: 'debit',
          amount: 30_000,
          sender: null,
          reason: null,
        }),
      ).toMatchObject({ kind: 'processed' });
      const transfer = await underTest.receivedTransfer(50_000);
      expect(
        await underTest.provider.refund({
          reference: reference(),
          providerReference: transfer.providerReference,
          channel: 'transfer',
          amount: 50_000,
          sender: transfer.sender,
          reason: null,
        }),
      ).toMatchObject({ kind: 'processed' });
    });

    it('refuses a refund of a charge it never took', async () => {
      expect(await cardRefund('no-such-charge', 1_000)).toMatchObject({ kind: 'failed' });
    });

    it('answers a requery of a refund as it ended; closes a reference it never saw, refusing it later', async () => {
      const charge = await underTest.chargedCard(100_000);
      const ref = reference();
      const processed = await cardRefund(charge, 10_000, ref);
      expect(await underTest.provider.requeryRefund(ref)).toEqual(processed);
      const never = reference();
      expect(await underTest.provider.requeryRefund(never)).toMatchObject({ kind: 'failed' });
      expect(await cardRefund(charge, 10_000, never)).toMatchObject({ kind: 'failed' });
    });
  });
}
