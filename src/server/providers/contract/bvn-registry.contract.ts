// The BVN registry capability of the PaymentProvider port (TBvnRegistryPort).
import { beforeAll, describe, expect, it } from 'vitest';
import type { TBvnRecord, TBvnRegistryPort } from '../payments';

export type TBvnRegistryUnderTest = {
  provider: TBvnRegistryPort;
  /** A BVN the registry holds, what it holds for it, and one account under it. */
  knownBvn: string;
  knownHolder: TBvnRecord;
  accountUnderBvn: { institutionCode: string; accountNumber: string };
};

/** A BVN no registry holds: 11 digits, never issued. */
const UNKNOWN_BVN = '00000000000';

export function bvnRegistryContract(adapter: string, make: () => Promise<TBvnRegistryUnderTest>) {
  describe(`PaymentProvider port contract, BVN registry: ${adapter}`, () => {
    let underTest: TBvnRegistryUnderTest;
    beforeAll(async () => {
      underTest = await make();
    });

    it('answers the BVN registry: the holder, date of birth and registered phone of a BVN, no one for a BVN never issued', async () => {
      const record = await underTest.provider.lookupBvn(underTest.knownBvn);
      expect(record).toEqual(underTest.knownHolder);
      expect(record?.dateOfBirth).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(record?.phoneNumber).toMatch(/^\+\d{8,15}$/);
      expect(await underTest.provider.lookupBvn(UNKNOWN_BVN)).toBeNull();
    });

    it('lists the accounts under a BVN, and none under a BVN never issued', async () => {
      const accounts = await underTest.provider.accountsOfBvn(underTest.knownBvn);
      expect(accounts).toContainEqual(underTest.accountUnderBvn);
      expect(await underTest.provider.accountsOfBvn(UNKNOWN_BVN)).toEqual([]);
    });
  });
}
