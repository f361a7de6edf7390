// The notices capability of the PaymentProvider port (TNoticesPort), with the transfers in it
// tells us of (TTransfersInPort.returnTransfer): a notice is read only when its signature over
// the raw body verifies, and a transfer we do not take goes back once.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TNoticesPort, TRawNotice, TTransferAccount, TTransfersInPort } from '../payments';
import { contractReference as reference } from './contract-references';

export type TNoticesUnderTest = {
  provider: TNoticesPort;
  /** The one-time accounts the notices tell of, and what gives their money back. */
  transfersIn: TTransfersInPort;
  /** `amount` sent into a one-time account, and the provider's notice of it as it reaches us. */
  transferNotice(account: TTransferAccount, amount: number): Promise<TRawNotice>;
};

export function noticesContract(adapter: string, make: () => Promise<TNoticesUnderTest>) {
  describe(`PaymentProvider port contract, notices: ${adapter}`, () => {
    let underTest: TNoticesUnderTest;
    beforeAll(async () => {
      underTest = await make();
    });

    /** A transfer of the account's amount, told: our reference, its notice. */
    async function told(amount = 250_000) {
      const ours = reference();
      const account = await underTest.transfersIn.openTransferAccount({
        reference: ours,
        amount,
        accountName: 'Tola Stores',
      });
      return { ours, notice: await underTest.transferNotice(account, amount) };
    }

    it("reads a transfer's signed notice: our reference, the amount in naira, the provider's reference", async () => {
      const { ours, notice } = await told();
      expect(await underTest.provider.readNotice(notice)).toMatchObject({
        kind: 'transfer_received',
        reference: ours,
        amount: 250_000,
        currency: 'NGN',
        providerReference: expect.any(String),
      });
      // Read again (delivered twice), it says the same.
      expect(await underTest.provider.readNotice(notice)).toEqual(
        await underTest.provider.readNotice(notice),
      );
    });

    it('reads nothing from a notice whose body was altered, or without its signature', async () => {
      const { notice } = await told();
      const altered = Buffer.from(notice.body.toString('utf8').replace('250000', '250001'));
      expect(altered.equals(notice.body)).toBe(false);
      expect(await underTest.provider.readNotice({ ...notice, body: altered })).toBeNull();
      const unsigned = Object.fromEntries(
        Object.entries(notice.headers).filter(([name]) => name === 'content-type'),
      );
      expect(await underTest.provider.readNotice({ ...notice, headers: unsigned })).toBeNull();
      expect(
        await underTest.provider.readNotice({ body: Buffer.alloc(0), headers: notice.headers }),
      ).toBeNull();
    });

    it('gives a transfer it told us of back to its sender, once however often asked', async () => {
      const { ours, notice } = await told();
      const read = await underTest.provider.readNotice(notice);
      if (read?.kind !== 'transfer_received') throw new Error('the notice is not a transfer');
      const request = {
        reference: ours,
        providerReference: read.providerReference,
        amount: read.amount,
        currency: read.currency,
        reason: 'already_paid' as const,
      };
      expect(await underTest.transfersIn.returnTransfer(request)).toEqual({ returned: true });
      expect(await underTest.transfersIn.returnTransfer(request)).toEqual({ returned: true });
    });
  });
}
