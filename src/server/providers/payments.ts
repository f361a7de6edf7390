/**
 * The seat of the PaymentProvider port (ARCHITECTURE.md "Money movement: the provider port").
 * The money-core issue fills it: the port's interface, its sandbox adapter and their contract
 * suite arrive together, chosen at start-up like the SMS adapter. Until then the seat is empty
 * and nothing may read it.
 */
export type TPaymentProviderSeat = null;

export const EMPTY_PAYMENT_PROVIDER_SEAT: TPaymentProviderSeat = null;
