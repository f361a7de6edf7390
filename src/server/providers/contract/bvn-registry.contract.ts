// The BVN registry capability of the PaymentProvider port (TBvnRegistryPort): the registry proves
// a BVN by a code it sends itself (NIBSS's iGree), and says whose BVN an account is held under.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TBvnHolder, TBvnRegistryPort } from '../payments';

export type TBvnRegistryUnderTest = {
  provider: TBvnRegistryPort;
  /** A BVN the registry holds, its holder, and one account held under it. */
  knownBvn: string;
  knownHolder: TBvnHolder;
  accountUnderBvn: { institutionCode: string; accountNumber: string };
  /** The full contact behind a hint, which no hint may give away (the registered phone). */
  hiddenContact: string;
  /** Whether the registry's verification answers the accounts under the BVN. */
  answersAccounts: boolean;
  /** The newest code the registry sent to the BVN's holder (read off the holder's phone). */
  codeSent(): Promise<string>;
};

/** A BVN no registry holds: 11 digits, never issued. */
const UNKNOWN_BVN = '00000000000';
/** An account no bank holds. */
const UNKNOWN_ACCOUNT = { institutionCode: '058', accountNumber: '0000000000' };

export function bvnRegistryContract(adapter: string, make: () => Promise<TBvnRegistryUnderTest>) {
  describe(`PaymentProvider port contract, BVN registry: ${adapter}`, () => {
    let underTest: TBvnRegistryUnderTest;
    beforeAll(async () => {
      underTest = await make();
    });

    const open = async () => {
      const opened = await underTest.provider.startVerification(underTest.knownBvn);
      if (!opened) throw new Error('The registry did not open a verification of its own BVN');
      return opened;
    };

    it('opens a verification with the ways it can send a code, each hinted without giving the contact away; none for a BVN never issued', async () => {
      const { session, methods } = await open();
      expect(session).not.toBe('');
      expect(methods.length).toBeGreaterThan(0);
      for (const method of methods) {
        expect(method.id).not.toBe('');
        expect(method.hint).not.toBe('');
        expect(method.hint).not.toContain(underTest.hiddenContact.slice(-10));
      }
      expect(await underTest.provider.startVerification(UNKNOWN_BVN)).toBeNull();
    });

    it('sends its code the way chosen, refuses a wrong code and then takes the right one, answering the holder', async () => {
      const { session, methods } = await open();
      expect(await underTest.provider.sendCode(session, methods[0]!.id)).toBe('sent');
      const code = await underTest.codeSent();
      const wrong = code === '000000' ? '111111' : '000000';
      expect(await underTest.provider.finishVerification(session, wrong)).toEqual({
        outcome: 'wrong_code',
      });
      const ended = await underTest.provider.finishVerification(session, code);
      expect(ended).toMatchObject({
        outcome: 'verified',
        bvn: underTest.knownBvn,
        holder: underTest.knownHolder,
      });
      if (ended.outcome !== 'verified') return;
      expect(ended.holder.dateOfBirth).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (underTest.answersAccounts)
        expect(ended.accounts).toContainEqual(underTest.accountUnderBvn);
      else expect(ended.accounts).toBeNull();
    });

    it('sends a new code when asked again, and the newest one is right', async () => {
      const { session, methods } = await open();
      const method = methods[0]!.id;
      expect(await underTest.provider.sendCode(session, method)).toBe('sent');
      await underTest.codeSent();
      expect(await underTest.provider.sendCode(session, method)).toBe('sent');
      const newest = await underTest.codeSent();
      expect(await underTest.provider.finishVerification(session, newest)).toMatchObject({
        outcome: 'verified',
      });
    });

    it('answers a session it never opened as expired', async () => {
      const { methods } = await open();
      expect(await underTest.provider.sendCode('no-such-session', methods[0]!.id)).toBe('expired');
      expect(await underTest.provider.finishVerification('no-such-session', '123456')).toEqual({
        outcome: 'expired',
      });
    });

    it('names the BVN an account is held under, and none for an account no bank holds', async () => {
      expect(await underTest.provider.accountOwner(underTest.accountUnderBvn)).toBe(
        underTest.knownBvn,
      );
      expect(await underTest.provider.accountOwner(UNKNOWN_ACCOUNT)).toBeNull();
    });

    it('counts each lookup it makes once, before it makes it, and stops where the count refuses', async () => {
      let counted = 0;
      await underTest.provider.accountOwner(underTest.accountUnderBvn, async () => {
        counted += 1;
      });
      expect(counted).toBe(1);
      const refused = new Error('past the limit');
      await expect(
        underTest.provider.accountOwner(underTest.accountUnderBvn, () => Promise.reject(refused)),
      ).rejects.toBe(refused);
    });
  });
}
