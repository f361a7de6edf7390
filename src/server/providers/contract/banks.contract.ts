// The banks capability of the PaymentProvider port (TBanksPort): the bank list and name enquiry.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TBanksPort } from '../payments';

export type TBanksUnderTest = {
  provider: TBanksPort;
  /**
   * An account the provider's name enquiry finds, with its holder's BVN as the enquiry answers
   * it: null for a provider whose enquiry answers no BVN.
   */
  knownAccount: {
    institutionCode: string;
    accountNumber: string;
    accountName: string;
    bvn: string | null;
  };
};

export function banksContract(adapter: string, make: () => Promise<TBanksUnderTest>) {
  describe(`PaymentProvider port contract, banks: ${adapter}`, () => {
    let underTest: TBanksUnderTest;
    let provider: TBanksPort;
    beforeAll(async () => {
      underTest = await make();
      provider = underTest.provider;
    });

    it('finds a bank by its code with the ways it links accounts, and no bank for an unknown code', async () => {
      const { institutionCode } = underTest.knownAccount;
      const bank = await provider.lookupBank(institutionCode);
      expect(bank).toMatchObject({ institutionCode, name: expect.any(String) });
      expect(await provider.lookupBank('999999')).toBeNull();
      const banks = await provider.listBanks();
      expect(banks.map((b) => b.institutionCode)).toContain(institutionCode);
    });

    it("names an account's holder and their BVN by name enquiry, the same reference when asked again, and no one for a number the bank lacks", async () => {
      const { institutionCode, accountNumber, accountName, bvn } = underTest.knownAccount;
      const found = await provider.nameEnquiry({ institutionCode, accountNumber });
      expect(found).toMatchObject({ accountName, bvn, nameEnquiryId: expect.any(String) });
      expect(await provider.nameEnquiry({ institutionCode, accountNumber })).toEqual(found);
      const missing = `${accountNumber.slice(0, 9)}${(Number(accountNumber[9]) + 1) % 10}`;
      expect(await provider.nameEnquiry({ institutionCode, accountNumber: missing })).toBeNull();
    });
  });
}
