import { DATA_CATEGORIES } from './constants';
import { requestedDataCategories } from './data-sharing';
import type { TDataSharing } from './schemas/consent';

/*
 * What a server can do depends on the providers it runs on (docs/going-live.md): each capability
 * is served by one adapter, or is off. A consent is only accepted when every capability it needs
 * is on, and the page never offers a way to pay or link whose capability is off.
 */

/** The capabilities, in the order the start lists them: the payment port's, then SMS. */
export const CAPABILITIES = [
  'cards',
  'banks',
  'bvn',
  'mandates',
  'debits',
  'payouts',
  'refunds',
  'transfersIn',
  'notices',
  'acquirer',
  'settlement',
  'sms',
] as const;
export type TCapability = (typeof CAPABILITIES)[number];

/**
 * The capabilities every listed provider serves at once, each for its own money: its notices, its
 * settlement report, the refunds of what it took. None of them stands by behind another.
 */
const EACH_PROVIDER_AT_ONCE: readonly TCapability[] = ['notices', 'settlement', 'refunds'];

/** Whether a capability's new work goes to the first of its list that may take it (routing). */
export const takesNewWorkInOrder = (capability: TCapability): boolean =>
  !EACH_PROVIDER_AT_ONCE.includes(capability);

/**
 * A capability's providers (in order) as the start and the dashboard say them: those serving now
 * (the first, or each at once), and those standing by behind the first.
 */
export function providerRoles(capability: TCapability, providers: readonly string[]) {
  return EACH_PROVIDER_AT_ONCE.includes(capability)
    ? { serving: [...providers], standingBy: [] }
    : { serving: providers.slice(0, 1), standingBy: providers.slice(1) };
}

/** What a payer-facing screen needs to know: whether each capability is on. */
export type TCapabilitiesOn = Record<TCapability, boolean>;

/** Every capability on: the sandbox, and a test key with the sandbox's stand-ins. */
export const ALL_CAPABILITIES_ON: TCapabilitiesOn = Object.fromEntries(
  CAPABILITIES.map((capability) => [capability, true]),
) as TCapabilitiesOn;

/**
 * The page's chip terminal (public config `terminal`): the spec's reader, which this device must
 * reach (chip-terminal.ts `chipReaderTransports`), or a merchant's terminal the server pushes the
 * payment to (Paystack Terminal), which needs nothing of the payer's device.
 */
export type TPageTerminal = { kind: 'reader'; readerReachable: boolean } | { kind: 'push' };

/**
 * The ways to pay the page offers (spec §2), each only where its capability is on: no button
 * leads to a provider that is not there. 'Chip Card Terminal' also needs a reader this device
 * reaches, where the terminal is a reader.
 */
export function payMethodsOn(
  on: TCapabilitiesOn,
  terminal: TPageTerminal,
): { transfer: boolean; card: boolean; terminal: boolean } {
  const reached = terminal.kind === 'push' || terminal.readerReachable;
  return { transfer: on.transfersIn, card: on.cards, terminal: on.acquirer && reached };
}

/** A way a bank lets an account be linked (spec §3 User account.integrations). */
export type TLinkWay = 'transactionService' | 'altTransactionService' | 'card' | 'nibssAlt';

/**
 * What each way of linking needs: the provider's own direct-debit mandate (`banks`), the
 * alternate service's or a paper mandate (`mandates`), each then debited (`debits`); a card
 * link's test charge (`cards`).
 */
const LINK_WAY_NEEDS: Record<TLinkWay, readonly TCapability[]> = {
  transactionService: ['banks', 'debits'],
  altTransactionService: ['mandates', 'debits'],
  nibssAlt: ['mandates', 'debits'],
  card: ['cards'],
};

/**
 * The ways of linking a bank offers that this server can serve: the page never offers, and the
 * server never starts, a link whose capability is off.
 */
export function linkWaysOn<T extends TLinkWay>(offered: readonly T[], on: TCapabilitiesOn): T[] {
  return offered.filter((way) => LINK_WAY_NEEDS[way].every((capability) => on[capability]));
}

/** What a consent asks, as the merchant's request and the stored consent both say it. */
export type TConsentAsks = {
  payments: ReadonlyArray<{ type: 'immediate' | 'future' }>;
  /** The data categories asked for (data-sharing.ts `requestedDataCategories`). */
  dataCategories: ReadonlyArray<(typeof DATA_CATEGORIES)[number]>;
  hasForm: boolean;
  requiresAuth: boolean;
};

/**
 * Whether a payer must sign in to grant it: anything beyond an immediate payment on a consent
 * that lets a payer pay without signing in (spec §6 "Payment without sign-in is allowed only
 * when requirements.requiresAuth is false and there is an immediate payment"; a form, data
 * sharing and future payments are a signed-in payer's). A first sign-in is by an SMS code.
 */
export function needsSignIn(asks: TConsentAsks): boolean {
  return (
    asks.requiresAuth ||
    asks.hasForm ||
    asks.dataCategories.length > 0 ||
    asks.payments.some((payment) => payment.type === 'future')
  );
}

/**
 * The capabilities a consent needs that are off, in CAPABILITIES' order: none when it can be
 * served. Sign-in needs SMS; BVN data and bank account information need the BVN registry (the
 * payer's BVN proven, and an account is theirs when its BVN is); future payments need the
 * registry too (their accounts are linked), a way to mandate an account (the provider's direct
 * debit, or the alternate service and paper mandate) and debits; an immediate payment needs a
 * way to pay without an account of theirs (a card, or a transfer).
 */
export function capabilitiesMissing(asks: TConsentAsks, on: TCapabilitiesOn): TCapability[] {
  const needed = new Set<TCapability>();
  if (needsSignIn(asks)) needed.add('sms');
  if (asks.dataCategories.some((category) => category === 'bvnData' || category === 'bankAccounts'))
    needed.add('bvn');
  if (asks.payments.some((payment) => payment.type === 'future')) {
    needed.add('bvn');
    needed.add('debits');
    if (!on.banks && !on.mandates) needed.add('mandates');
  }
  if (
    asks.payments.some((payment) => payment.type === 'immediate') &&
    !on.cards &&
    !on.transfersIn
  ) {
    needed.add('cards');
    needed.add('transfersIn');
  }
  return CAPABILITIES.filter((capability) => needed.has(capability) && !on[capability]);
}

/** What a consent asks, read from the merchant's request or the consent as stored. */
export function consentAsks(consent: {
  payments: ReadonlyArray<{ type: 'immediate' | 'future' }>;
  dataSharing?: TDataSharing | null | undefined;
  formId?: string | null | undefined;
  requirements: { requiresAuth: boolean };
}): TConsentAsks {
  return {
    payments: consent.payments,
    dataCategories: requestedDataCategories(consent.dataSharing),
    hasForm: consent.formId !== undefined && consent.formId !== null,
    requiresAuth: consent.requirements.requiresAuth,
  };
}
