// The transfers-in capability of the PaymentProvider port (TTransfersInPort): one-time accounts.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TTransfersInPort } from '../payments';
import { contractReference as reference } from './contract-references';

export type TTransfersInUnderTest = { provider: TTransfersInPort };

export function transfersInContract(adapter: string, make: () => Promise<TTransfersInUnderTest>) {
  describe(`PaymentProvider port contract, transfers in: ${adapter}`, () => {
    let provider: TTransfersInPort;
    beforeAll(async () => {
      provider = (await make()).provider;
    });

    it('opens one one-time account per reference, a NUBAN that expires later', async () => {
      const request = { reference: reference(), amount: 250_000, accountName: 'Tola Stores' };
      const account = await provider.openTransferAccount(request);
      expect(account.accountNumber).toMatch(/^\d{10}$/);
      expect(account.bankName).not.toBe('');
      // The name the payer's bank shows: the provider's own, or the one asked for.
      expect(account.accountName).not.toBe('');
      expect(account.expiresAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
      expect(await provider.openTransferAccount(request)).toEqual(account);
      const other = await provider.openTransferAccount({ ...request, reference: reference() });
      expect(other.accountNumber).not.toBe(account.accountNumber);
    });

    it('closes a one-time account at `notAfter` when that comes before its own expiry', async () => {
      const request = { reference: reference(), amount: 250_000, accountName: 'Tola Stores' };
      const own = await provider.openTransferAccount(request);
      const notAfter = new Date(Date.now() + 60_000);
      const early = await provider.openTransferAccount({
        ...request,
        reference: reference(),
        notAfter,
      });
      expect(early.expiresAt.getTime()).toBeLessThanOrEqual(notAfter.getTime());
      const later = new Date(own.expiresAt.getTime() + 24 * 60 * 60_000);
      const kept = await provider.openTransferAccount({
        ...request,
        reference: reference(),
        notAfter: later,
      });
      expect(kept.expiresAt.getTime()).toBeLessThan(later.getTime());
    });
  });
}
