import type { TCapability } from '../../domain/capabilities';
import { formatErrorMessage } from '../../domain/errors';
import { AppError } from '../services/app-error';

/**
 * The adapter of a capability that is off (context.ts): its `provider` is 'off', and every call
 * of it is refused with CAPABILITY_OFF. Nothing should reach one (a consent that needs it is
 * refused at creation, and the page offers no way to it); one that does is answered as a
 * client's 409, never sent anywhere.
 */
export function offCapability<TPort extends { readonly provider: string }>(
  capability: TCapability,
): TPort {
  const refuse = () => Promise.reject(capabilityOff([capability]));
  return new Proxy({} as TPort, {
    get: (_target, property) => {
      if (property === 'provider') return 'off';
      // Not a thenable, nor anything the runtime asks of an object: only the port's calls refuse.
      if (typeof property === 'symbol' || property === 'then' || property === 'toJSON') {
        return undefined;
      }
      return refuse;
    },
  });
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
