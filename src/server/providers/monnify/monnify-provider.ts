import type { TPaymentPorts, TProviderCapability } from '../payments';
import { monnifyBanks } from './banks';
import { monnifyCards } from './cards';
import { monnifyNotices } from './monnify-notices';
import { monnifyShared, type TMonnifyProviderOptions } from './monnify-shared';
import { authorisePayout, monnifyPayouts } from './payouts';
import { monnifyRefunds } from './refunds';
import { monnifySettlement } from './settlement';
import { monnifyTransfersIn } from './transfers-in';

/*
 * The Monnify adapter of the PaymentProvider port (docs/providers/monnify.md): cards (the card
 * API: PIN in the charge, OTP, 3-D Secure), one-time accounts (pay with bank transfer), refunds
 * and give-backs, payouts (single transfers, where a wallet is named), banks (the bank list, name
 * enquiry, the BVN-account match), its notices and a settlement report. Monnify's direct debit is
 * not used (the doc says why); a BVN registry, mandates and a terminal come from elsewhere.
 *
 * Every call carries our reference (Monnify's paymentReference, refundReference and transfer
 * reference are ours), amounts cross in naira with kobo as decimals. A call that moves money and
 * gets no answer is asked about by its reference, never made again under another; still unknown,
 * it is thrown as MonnifyNoAnswer and left to the reconciler's requery.
 */

export { MONNIFY_PAYER_EMAIL } from './monnify-shared';
export type { TMonnifyProviderOptions } from './monnify-shared';

/** The port's capabilities Monnify offers; payouts only with a wallet to send them from. */
export const MONNIFY_CAPABILITIES = [
  'cards',
  'banks',
  'transfersIn',
  'refunds',
  'payouts',
  'settlement',
  'notices',
] as const satisfies readonly TProviderCapability[];

export type TMonnifyProvider = Pick<
  TPaymentPorts,
  Exclude<(typeof MONNIFY_CAPABILITIES)[number], 'payouts'>
> & {
  payouts?: TPaymentPorts['payouts'];
  /**
   * The operator's step for a payout Monnify holds for the merchant's OTP (its default): the
   * code Monnify sent them. Answers where the payout stands after it.
   */
  authorisePayout(request: { reference: string; otp: string }): ReturnType<typeof authorisePayout>;
};

export function monnifyProvider(options: TMonnifyProviderOptions): TMonnifyProvider {
  const mf = monnifyShared(options);
  return {
    cards: monnifyCards(mf),
    banks: monnifyBanks(mf),
    transfersIn: monnifyTransfersIn(mf),
    refunds: monnifyRefunds(mf),
    ...(mf.walletAccountNumber ? { payouts: monnifyPayouts(mf, mf.walletAccountNumber) } : {}),
    notices: monnifyNotices(mf),
    settlement: monnifySettlement(mf),
    authorisePayout: (request) => authorisePayout(mf, request),
  };
}
