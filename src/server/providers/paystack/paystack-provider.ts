import type { TPaymentPorts, TProviderCapability, TPushTerminalPort } from '../payments';
import { paystackBanks } from './banks';
import { paystackCards } from './cards';
import { paystackDebits } from './debits';
import { paystackNotices } from './paystack-notices';
import { paystackShared, type TPaystackProviderOptions } from './paystack-shared';
import { paystackPayouts } from './payouts';
import { paystackRefunds } from './refunds';
import { paystackSettlement } from './settlement';
import { paystackTerminal } from './terminal';
import { paystackTransfersIn } from './transfers-in';

/*
 * The Paystack adapter of the PaymentProvider port (docs/providers/paystack.md). It offers the
 * capabilities Paystack has: cards (the Charge API: PIN, OTP, 3-D Secure, saved cards by
 * authorisation code), banks (List Banks, Resolve Account: no BVN), one-time accounts (Pay with
 * Transfer), debits on an authorisation, payouts (Transfers), refunds, its notices (webhooks)
 * and a settlement report (List Transactions, Transfers and Refunds). A BVN registry, the
 * alternate service and paper mandates, and a card reader's acquirer are not Paystack's: the
 * composition root (context.ts) says where those come from. Its card-present product, Paystack
 * Terminal, is a chip terminal of the pushed kind (paystackTerminalProvider).
 *
 * Every call carries our reference, written in Paystack's characters (paystack-references.ts),
 * and amounts in kobo. A call that moves money and gets no answer (provider-call.ts) is asked about
 * by its reference, once, at once; if Paystack still cannot say, it is thrown as ProviderNoAnswer,
 * which leaves the attempt to the reconciler's requery, and nothing charges that reference or its
 * payment again meanwhile.
 */

export { PAYSTACK_PAYER_EMAIL, payerOfPaystackEmail, paystackPayerEmail } from './paystack-shared';
export { PAYSTACK_TRANSFER_ACCOUNT_MS } from './transfers-in';
export { referenceOfNote } from './refunds';
export type { TPaystackProviderOptions } from './paystack-shared';

/** The port's capabilities Paystack offers (its terminal is an adapter of its own). */
export const PAYSTACK_CAPABILITIES = [
  'cards',
  'banks',
  'transfersIn',
  'debits',
  'payouts',
  'refunds',
  'settlement',
  'notices',
] as const satisfies readonly TProviderCapability[];

/** The adapter: the capabilities it offers, each under Paystack's name. */
export type TPaystackProvider = Pick<TPaymentPorts, (typeof PAYSTACK_CAPABILITIES)[number]>;

/**
 * Paystack Terminal's push payment requests (terminal.ts): the chip terminal where the operator
 * chose it (TERMINAL_PROVIDER=paystack), on the same key as the rest.
 */
export function paystackTerminalProvider(options: TPaystackProviderOptions): TPushTerminalPort {
  return paystackTerminal(paystackShared(options));
}

/** The adapter: one object of what its capabilities share, and each capability of its own. */
export function paystackProvider(options: TPaystackProviderOptions): TPaystackProvider {
  const ps = paystackShared(options);
  return {
    cards: paystackCards(ps),
    banks: paystackBanks(ps),
    debits: paystackDebits(ps),
    payouts: paystackPayouts(ps),
    refunds: paystackRefunds(ps),
    transfersIn: paystackTransfersIn(ps),
    notices: paystackNotices(ps),
    settlement: paystackSettlement(ps),
  };
}
