import type { TTransferAccount, TTransfersInPort } from '../payments';
import { paystackNoAnswer } from './paystack-calls';
import { ProviderNoAnswer } from '../provider-call';
import type { TPaystackCharge } from './paystack-api';
import { isDuplicateReference } from './paystack-declines';
import { toPaystackReference } from './paystack-references';
import { chargeByReference, PAYSTACK_PAYER_EMAIL, type TPaystack } from './paystack-shared';
import { giveBack } from './refunds';

/** How long a one-time account takes money at most (the spec's 30 minutes; Paystack's too). */
export const PAYSTACK_TRANSFER_ACCOUNT_MS = 30 * 60_000;

/** A one-time account as the database keeps it: its expiry as JSON writes a date. */
const accountFrom = (kept: TTransferAccount | { expiresAt: string }): TTransferAccount =>
  ({ ...kept, expiresAt: new Date(kept.expiresAt) }) as TTransferAccount;

/** The one-time account some process opened for our reference, if one did. */
async function transferAccountOf(ps: TPaystack, reference: string) {
  const kept = (await ps.references.read('transfer_account', reference)) as TTransferAccount | null;
  return kept ? accountFrom(kept) : null;
}

/** One-time accounts by Pay with Transfer, and money we do not take given back. */
export function paystackTransfersIn(ps: TPaystack): TTransfersInPort {
  return {
    provider: 'paystack',
    async openTransferAccount({ reference, amount, notAfter }) {
      const known = await transferAccountOf(ps, reference);
      if (known) return known;
      const providerReference = toPaystackReference(reference);
      const ownExpiry = ps.clock.now().getTime() + PAYSTACK_TRANSFER_ACCOUNT_MS;
      const expiresAt = new Date(Math.min(ownExpiry, notAfter?.getTime() ?? ownExpiry));
      let charge: TPaystackCharge;
      try {
        const answer = await ps.client.write<TPaystackCharge>('/charge', {
          email: PAYSTACK_PAYER_EMAIL,
          amount,
          reference: providerReference,
          bank_transfer: { account_expires_at: expiresAt.toISOString() },
          metadata: { oya_channel: 'transfer' },
        });
        if (!answer.ok && !isDuplicateReference(answer)) {
          throw new Error(`Paystack opened no account for a transfer: ${answer.message}`);
        }
        charge = answer.ok ? answer.data : await chargeByReference(ps, providerReference);
      } catch (error) {
        if (!(error instanceof ProviderNoAnswer)) throw error;
        charge = await chargeByReference(ps, providerReference);
      }
      if (!charge.account_number) {
        throw paystackNoAnswer(`the transfer account ${providerReference}`, 'no account number');
      }
      const account: TTransferAccount = {
        bankName: charge.bank?.name ?? 'Paystack',
        accountNumber: charge.account_number,
        // The name the payer's bank shows is Paystack's, not the one we asked for.
        accountName: charge.account_name ?? 'Paystack Checkout',
        expiresAt: charge.account_expires_at ? new Date(charge.account_expires_at) : expiresAt,
      };
      // Two processes asked at once get one account: Paystack's for the reference, kept first.
      return accountFrom(await ps.references.keepFirst('transfer_account', reference, account));
    },

    // Paystack itself sends back a transfer of another amount or one after the account expired,
    // and tells us of neither; what reaches us and is not taken (a payment paid otherwise, a
    // link's test transfer from another account) is refunded whole, once per transfer.
    returnTransfer: async ({ providerReference, amount, currency, reason }) => {
      await giveBack(ps, {
        transaction: providerReference,
        amount,
        currency,
        reference: `${providerReference}.returned`,
        reason: `Returned: ${reason.replace(/_/g, ' ')}`,
      });
      return { returned: true };
    },
  };
}
