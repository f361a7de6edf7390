// The mandate-setup capability of the PaymentProvider port (TMandateSetupPort): the alternate
// service's auth parameters and the signed paper mandate.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TMandateSetupPort } from '../payments';
import { contractMandateTerms, contractReference as reference } from './contract-references';

export type TMandateSetupUnderTest = {
  provider: TMandateSetupPort;
  /** An account the alternate service mandates, and the right answers to its auth parameters. */
  altAccount: {
    institutionCode: string;
    accountNumber: string;
    answers: Array<{ param: string; value: string }>;
  };
  /** An account the alternate service does not mandate. */
  notAltAccount: { institutionCode: string; accountNumber: string };
};

export function mandateSetupContract(adapter: string, make: () => Promise<TMandateSetupUnderTest>) {
  describe(`PaymentProvider port contract, mandate setup: ${adapter}`, () => {
    let underTest: TMandateSetupUnderTest;
    let provider: TMandateSetupPort;
    beforeAll(async () => {
      underTest = await make();
      provider = underTest.provider;
    });

    it('opens an alternate-service mandate with its auth parameters, the same for a retry, and verifies only the right answers', async () => {
      const { institutionCode, accountNumber, answers } = underTest.altAccount;
      const payer = {
        id: 'pyr_contract',
        fullName: 'Adaeze Okafor',
        phoneNumber: '+2348030000001',
      };
      const terms = contractMandateTerms();
      const request = { reference: reference(), institutionCode, accountNumber, payer, terms };
      const mandate = await provider.requestAltMandate(request);
      expect(mandate).toMatchObject({
        authReference: expect.any(String),
        requestId: expect.any(String),
      });
      expect(mandate?.authParams.length).toBeGreaterThan(0);
      expect(await provider.requestAltMandate(request)).toEqual(mandate);
      const authReference = mandate?.authReference ?? '';
      const verify = (given: typeof answers) =>
        provider.verifyAltMandate({
          authReference,
          reference: request.reference,
          providerReference: mandate?.providerReference ?? null,
          institutionCode,
          accountNumber,
          answers: given,
        });
      const wrong = answers.map((a, i) => (i === 0 ? { ...a, value: `${a.value}9` } : a));
      expect(await verify(wrong)).toEqual({ verified: false });
      expect(await verify(answers.slice(1))).toEqual({ verified: false });
      expect(await verify(answers)).toEqual({ verified: true });
      // Asked again (its answer lost): the mandate it activated still answers verified.
      expect(await verify(answers)).toEqual({ verified: true });
      expect(
        await provider.requestAltMandate({ ...request, ...underTest.notAltAccount }),
      ).toBeNull();
    });

    it('answers pending for a paper mandate just issued', async () => {
      expect(
        await provider.paperMandateStatus({ reference: reference(), issuedAt: new Date() }),
      ).toBe('pending');
    });
  });
}
