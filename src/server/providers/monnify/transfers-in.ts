import type { TTransferAccount, TTransfersInPort } from '../payments';
import type { TMonnifyTransferAccount } from './monnify-api';
import { ProviderNoAnswer } from './monnify-client';
import { initialized, initTransactionBody } from './cards';
import { transactionOf, type TMonnify } from './monnify-shared';
import { giveBack } from './refunds';

/*
 * One-time accounts by Monnify's pay with bank transfer: a transaction initialised with our
 * reference (paymentMethods ACCOUNT_TRANSFER), then its dynamic account (bank-transfer/
 * init-payment: account number, name, bank, and how many seconds more it takes money). Asked
 * again, init-payment answers the same account: a lost answer is asked again, never a second
 * transaction. Money that reaches it is told by SUCCESSFUL_TRANSACTION (monnify-notices.ts), its
 * paymentStatus PAID, OVERPAID or PARTIALLY_PAID: what arrived is the amount, and one that is
 * not the amount asked for is given back (returnTransfer), never booked as paid.
 */

/** Monnify's own lifetime of a one-time account, when its answer names none (its 40 minutes). */
const DEFAULT_ACCOUNT_SECONDS = 2_400;

/** A one-time account as the database keeps it: its expiry as JSON writes a date. */
const accountFrom = (kept: TTransferAccount | { expiresAt: string }): TTransferAccount =>
  ({ ...kept, expiresAt: new Date(kept.expiresAt) }) as TTransferAccount;

/** init-payment on the transaction: the account, asked again after no answer (it repeats safely). */
async function accountOf(
  mf: TMonnify,
  transactionReference: string,
): Promise<TMonnifyTransferAccount> {
  const call = () =>
    mf.client.write<TMonnifyTransferAccount>('/api/v1/merchant/bank-transfer/init-payment', {
      transactionReference,
    });
  let answer;
  try {
    answer = await call();
  } catch (error) {
    if (!(error instanceof ProviderNoAnswer)) throw error;
    answer = await call();
  }
  if (!answer.ok) throw new Error(`Monnify opened no account for a transfer: ${answer.message}`);
  return answer.body;
}

export function monnifyTransfersIn(mf: TMonnify): TTransfersInPort {
  return {
    provider: 'monnify',
    async openTransferAccount({ reference, amount, accountName, notAfter }) {
      // Opened already, by this process or another: the same account, and no call.
      const known = await mf.references.read('transfer_account', reference);
      if (known) return accountFrom(known as TTransferAccount);
      const made = await initialized(
        mf,
        initTransactionBody(mf, { reference, amount, narration: accountName, channel: 'transfer' }),
      );
      const opened = await accountOf(mf, made.transactionReference);
      const now = mf.clock.now().getTime();
      const ownExpiry = now + (opened.accountDurationSeconds ?? DEFAULT_ACCOUNT_SECONDS) * 1000;
      const account: TTransferAccount = {
        bankName: opened.bankName,
        accountNumber: opened.accountNumber,
        // The name the payer's bank shows is Monnify's, not the one we asked for.
        accountName: opened.accountName,
        expiresAt: new Date(Math.min(ownExpiry, notAfter?.getTime() ?? ownExpiry)),
      };
      // Two processes asked at once get one account: the first kept (each computed its expiry).
      return accountFrom(await mf.references.keepFirst('transfer_account', reference, account));
    },

    // Money we do not take (another amount, too late, a payment paid otherwise) goes back to the
    // account it came from by a refund of its transaction, once per transaction.
    returnTransfer: async ({ reference, providerReference, amount, reason }) => {
      const transactionReference =
        providerReference || (await transactionOf(mf, reference))?.transactionReference;
      if (!transactionReference) throw new Error(`Monnify holds no transaction for ${reference}`);
      await giveBack(mf, {
        transactionReference,
        amount,
        reference: transactionReference,
        reason: `Returned: ${reason.replace(/_/g, ' ')}`,
      });
      return { returned: true };
    },
  };
}
