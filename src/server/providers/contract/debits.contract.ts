// The debits capability of the PaymentProvider port (TDebitsPort): debits on a mandate.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TDebitsPort, TSettlementPort } from '../payments';
import { contractReference as reference, expectReported } from './contract-references';

/** An account and the mandate the provider debits it on. */
export type TMandatedAccount = {
  institutionCode: string;
  accountNumber: string;
  mandateReference: string;
  /** The payer the mandate was given by (a provider's customer per payer). */
  payerId: string;
};

export type TDebitsUnderTest = {
  provider: TDebitsPort;
  /** The provider's settlement report, which the debits' cases read. */
  settlement: TSettlementPort;
  /** An account whose mandate is good and whose balance covers ₦10,000.00, debited many times. */
  fundedAccount: TMandatedAccount;
  /** An account whose balance cannot cover a debit of ₦10,000.00. */
  poorAccount: TMandatedAccount;
  /** An account (or mandate) the provider does not know. */
  unknownAccount: TMandatedAccount;
};

export function debitsContract(adapter: string, make: () => Promise<TDebitsUnderTest>) {
  describe(`PaymentProvider port contract, debits: ${adapter}`, () => {
    let underTest: TDebitsUnderTest;
    let provider: TDebitsPort;
    beforeAll(async () => {
      underTest = await make();
      provider = underTest.provider;
    });
    const debit = (account: TMandatedAccount, ref: string) =>
      provider.debitAccount({
        reference: ref,
        mandateReference: account.mandateReference,
        payerId: account.payerId,
        institutionCode: account.institutionCode,
        accountNumber: account.accountNumber,
        amount: 1_000_000,
        narration: 'Membership',
      });

    // The debited account, for a provider that gives a debit back by a payout to it (Remita).
    const accountOf = (account: TMandatedAccount) => ({
      institutionCode: account.institutionCode,
      accountNumber: account.accountNumber,
      accountName: 'Contract payer',
    });
    // A provider that finds a debit only under its mandate (Remita) is told it.
    const requery = (ref: string) =>
      provider.requeryDebit(ref, underTest.fundedAccount.mandateReference);

    it('debits an account once per reference, and gives a debit back', async () => {
      const ref = reference();
      const first = await debit(underTest.fundedAccount, ref);
      expect(first).toMatchObject({ kind: 'succeeded', providerReference: expect.any(String) });
      // The same reference again: the same answer, no second debit.
      expect(await debit(underTest.fundedAccount, ref)).toEqual(first);
      if (first.kind !== 'succeeded') return;
      const reversal = {
        providerReference: first.providerReference,
        reference: ref,
        account: accountOf(underTest.fundedAccount),
      };
      const reversed = await provider.reverseDebit(reversal);
      expect(reversed).toMatchObject({ reversed: true });
      expect(await provider.reverseDebit(reversal)).toEqual(reversed);
      // Given back once: the debit reads given back, and the report holds it once, netting to nothing.
      await expect
        .poll(() => requery(ref))
        .toMatchObject({ kind: 'taken', amount: 1_000_000, givenBack: true });
      await expect
        .poll(async () =>
          (await underTest.settlement.settlementReport()).filter((l) => l.reference === ref),
        )
        .toEqual([{ channel: 'debit', reference: ref, amount: 1_000_000, givenBack: true }]);
    });

    it('fails a debit the account cannot cover, and one of an account it does not know', async () => {
      expect(await debit(underTest.poorAccount, reference())).toMatchObject({
        kind: 'failed',
        reason: 'insufficient_funds',
      });
      expect(await debit(underTest.unknownAccount, reference())).toMatchObject({
        kind: 'failed',
        reason: 'account_not_found',
      });
    });

    it('answers a requery of a debit: taken, given back once reversed; a late debit after a requery is refused', async () => {
      const ref = reference();
      const first = await debit(underTest.fundedAccount, ref);
      if (first.kind !== 'succeeded') throw new Error(`expected a debit, got ${first.kind}`);
      expect(await requery(ref)).toEqual({
        kind: 'taken',
        providerReference: first.providerReference,
        amount: 1_000_000,
        givenBack: false,
      });
      await expectReported(underTest.settlement, ref, [
        { channel: 'debit', reference: ref, amount: 1_000_000, givenBack: false },
      ]);
      await provider.reverseDebit({
        providerReference: first.providerReference,
        reference: ref,
        account: accountOf(underTest.fundedAccount),
      });
      // A reversal may take its time at the provider: the requery says so once it is done.
      await expect.poll(() => requery(ref)).toMatchObject({ kind: 'taken', givenBack: true });

      const never = reference();
      expect(await requery(never)).toMatchObject({ kind: 'not_taken' });
      expect(await debit(underTest.fundedAccount, never)).toMatchObject({ kind: 'failed' });
      await expectReported(underTest.settlement, never, []);
    });

    it('answers the cancellation of a debit the bank took: taken; of one never sent: not taken, and closed', async () => {
      const { mandateReference } = underTest.fundedAccount;
      const ref = reference();
      const first = await debit(underTest.fundedAccount, ref);
      if (first.kind !== 'succeeded') throw new Error(`expected a debit, got ${first.kind}`);
      expect(
        await provider.cancelDebit({
          reference: ref,
          mandateReference,
          providerReference: first.providerReference,
        }),
      ).toMatchObject({ kind: 'taken', amount: 1_000_000 });

      const never = reference();
      expect(
        await provider.cancelDebit({ reference: never, mandateReference, providerReference: null }),
      ).toMatchObject({ kind: 'not_taken' });
      expect(await debit(underTest.fundedAccount, never)).toMatchObject({ kind: 'failed' });
      await expectReported(underTest.settlement, never, []);
    });
  });
}
