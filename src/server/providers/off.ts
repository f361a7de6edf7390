import type { TCapability } from '../../domain/capabilities';
import { formatErrorMessage } from '../../domain/errors';
import { AppError } from '../app-error';

/**
 * A capability that is off (context.ts): no adapter serves it, and it has no calls to make. A
 * port of the record of capabilities is the adapter's port or this value, so every caller says
 * what happens when it is off, usually by `usable` (a client's 409 CAPABILITY_OFF). Nothing
 * should reach one: a consent that needs it is refused at creation, and the page offers no way to
 * it.
 */
export type TOffPort<TName extends TCapability = TCapability> = {
  readonly provider: 'off';
  readonly off: true;
  readonly capability: TName;
};

/** The value of `capability` while it is off. */
export function offPort<TName extends TCapability>(capability: TName): TOffPort<TName> {
  return { provider: 'off', off: true, capability };
}

/** Whether `port` is a capability that is off. */
export function isOff<TPort extends object>(port: TPort | TOffPort): port is TOffPort {
  return 'off' in port && port.off === true;
}

/**
 * The port, or the refusal of a call that needs it while it is off (409 CAPABILITY_OFF): what a
 * service calls a capability through.
 */
export function usable<TPort extends object>(port: TPort | TOffPort): TPort {
  if (isOff(port)) throw capabilityOff([port.capability]);
  return port;
}

/** The refusal of a call that needs `capabilities`, which are off. */
export function capabilityOff(capabilities: readonly TCapability[]): AppError {
  const named = capabilities.map(capabilityName);
  const list =
    named.length > 1 ? `${named.slice(0, -1).join(', ')} and ${named.at(-1)}` : (named[0] ?? '');
  return new AppError(
    'CAPABILITY_OFF',
    formatErrorMessage('CAPABILITY_OFF', { capabilities: list }),
  );
}

/** How a capability is named to a merchant or an operator. */
export function capabilityName(capability: TCapability): string {
  return CAPABILITY_NAMES[capability];
}

const CAPABILITY_NAMES: Record<TCapability, string> = {
  cards: 'card payments',
  banks: 'bank account linking',
  bvn: 'a BVN registry',
  mandates: 'an e-mandate service',
  debits: 'direct debits',
  payouts: 'payouts',
  refunds: 'refunds',
  transfersIn: 'payments by bank transfer',
  notices: "the provider's notices",
  acquirer: 'a card terminal acquirer',
  settlement: 'a settlement report',
  sms: 'SMS',
};
