import { CAPABILITIES } from '../../domain/capabilities';
import type { TCardsPort } from './ports/cards';
import type { TBanksPort } from './ports/banks';
import type { TBvnRegistryPort } from './ports/bvn';
import type { TMandateSetupPort } from './ports/mandates';
import type { TDebitsPort } from './ports/debits';
import type { TPayoutsPort } from './ports/payouts';
import type { TRefundsPort } from './ports/refunds';
import type { TTransfersInPort } from './ports/transfers-in';
import type { TNoticesPort } from './ports/notices';
import type { TAcquirerPort } from './ports/acquirer';
import type { TSettlementPort } from './ports/settlement';
import type { TOffPort } from './off';

/*
 * The PaymentProvider port (ARCHITECTURE.md "Money movement: the provider port"): everything a
 * bank or a card network does for us, as a record of capabilities (TPaymentProviders), each
 * from one adapter chosen at start-up from PAYMENT_PROVIDER (context.ts); the sandbox network is
 * the default. Every adapter passes the contract suites of the capabilities it offers
 * (contract/, payments.contract.ts for the whole port).
 *
 * The port grows flow by flow: card charges (PIN, OTP, 3-D Secure, the ways a charge fails),
 * refunds, one-time accounts for transfers, name enquiry, mandates and direct debits on them,
 * and the card terminal's acquirer (reader keys, chip purchases and their reversal).
 *
 * What crosses it: card details in the clear, in memory only, for the one call that needs them
 * (never stored, never logged: the adapter keeps none of them either); amounts in integer kobo;
 * our reference for the attempt, which a provider echoes and which makes a retried call safe.
 *
 * Every call that moves money carries our reference, and each kind of it can be asked about by
 * that reference (a requery: debited or not) when its answer was lost (a timeout, a crash): the
 * reconciler asks before anything may charge the payment again (docs/payments.md
 * "Reconciliation"). A requery's 'not_taken' is final: the provider closes the reference, and a
 * late call with it is refused.
 */

/*
 * Each capability's port is a file of its own under ports/, in the port's words (no provider's
 * field names): re-exported here, so the services import every port type from this one place.
 */
export * from './ports/common';
export * from './ports/cards';
export * from './ports/banks';
export * from './ports/bvn';
export * from './ports/mandates';
export * from './ports/debits';
export * from './ports/payouts';
export * from './ports/refunds';
export * from './ports/transfers-in';
export * from './ports/notices';
export * from './ports/acquirer';
export * from './ports/settlement';

/** Every capability's port, as an adapter that serves it offers it. */
export type TPaymentPorts = {
  cards: TCardsPort;
  banks: TBanksPort;
  bvn: TBvnRegistryPort;
  mandates: TMandateSetupPort;
  debits: TDebitsPort;
  payouts: TPayoutsPort;
  refunds: TRefundsPort;
  transfersIn: TTransfersInPort;
  notices: TNoticesPort;
  acquirer: TAcquirerPort;
  settlement: TSettlementPort;
};

/**
 * The whole port as the services see it for new work: a record of capabilities, each the port of
 * the first adapter of its list (registry.ts), or off (TOffPort: `usable` refuses a call to it).
 * A later call about money resolves its adapter by the provider its row names, never here.
 */
export type TPaymentProviders = {
  [TName in Exclude<keyof TPaymentPorts, 'settlement'>]: TPaymentPorts[TName] | TOffPort<TName>;
} & {
  /** Every adapter's settlement report, one after another (empty where none holds money). */
  settlement: TSettlementPort;
};

/**
 * The capabilities of the port, by name: what an adapter offers and a configuration needs. The
 * domain lists them (with SMS, which is a port of its own); every key of the port is one of them.
 */
export const PROVIDER_CAPABILITIES = CAPABILITIES.filter(
  (capability): capability is keyof TPaymentProviders => capability !== 'sms',
);

export type TProviderCapability = keyof TPaymentPorts;
