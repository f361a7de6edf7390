import { describe, expect, it } from 'vitest';
import {
  ALL_CAPABILITIES_ON,
  capabilitiesMissing,
  linkWaysOn,
  needsSignIn,
  payMethodsOn,
  providerRoles,
  type TCapabilitiesOn,
  type TConsentAsks,
} from './capabilities';

const asks = (over: Partial<TConsentAsks>): TConsentAsks => ({
  payments: [],
  dataCategories: [],
  hasForm: false,
  requiresAuth: false,
  ...over,
});

/** A live Paystack key alone: no BVN registry, mandate service, terminal or SMS. */
const PAYSTACK_LIVE: TCapabilitiesOn = {
  ...ALL_CAPABILITIES_ON,
  bvn: false,
  mandates: false,
  acquirer: false,
  sms: false,
};

describe('the capabilities a consent needs', () => {
  it('asks nothing more of an immediate payment a payer may make without signing in', () => {
    const pay = asks({ payments: [{ type: 'immediate' }] });
    expect(needsSignIn(pay)).toBe(false);
    expect(capabilitiesMissing(pay, PAYSTACK_LIVE)).toEqual([]);
  });

  it('needs SMS for any consent a payer must sign in to grant', () => {
    expect(needsSignIn(asks({ payments: [{ type: 'immediate' }], requiresAuth: true }))).toBe(true);
    expect(needsSignIn(asks({ hasForm: true }))).toBe(true);
    expect(needsSignIn(asks({ dataCategories: ['ninData'] }))).toBe(true);
    expect(capabilitiesMissing(asks({ hasForm: true }), PAYSTACK_LIVE)).toEqual(['sms']);
  });

  it('needs the BVN registry for BVN data and bank account information, not for a NIN', () => {
    expect(capabilitiesMissing(asks({ dataCategories: ['bvnData'] }), PAYSTACK_LIVE)).toEqual([
      'bvn',
      'sms',
    ]);
    expect(
      capabilitiesMissing(asks({ dataCategories: ['bankAccounts'] }), {
        ...ALL_CAPABILITIES_ON,
        bvn: false,
      }),
    ).toEqual(['bvn']);
    expect(
      capabilitiesMissing(asks({ dataCategories: ['ninData'] }), {
        ...ALL_CAPABILITIES_ON,
        bvn: false,
      }),
    ).toEqual([]);
  });

  it('needs the registry, a mandate and debits for future payments', () => {
    const future = asks({ payments: [{ type: 'future' }] });
    expect(capabilitiesMissing(future, PAYSTACK_LIVE)).toEqual(['bvn', 'sms']);
    // The provider's own direct debit mandates an account: the alternate service is not needed.
    expect(capabilitiesMissing(future, { ...ALL_CAPABILITIES_ON, mandates: false })).toEqual([]);
    expect(
      capabilitiesMissing(future, { ...ALL_CAPABILITIES_ON, mandates: false, banks: false }),
    ).toEqual(['mandates']);
    expect(capabilitiesMissing(future, { ...ALL_CAPABILITIES_ON, debits: false })).toEqual([
      'debits',
    ]);
  });

  it('needs a card or a transfer for an immediate payment', () => {
    const pay = asks({ payments: [{ type: 'immediate' }] });
    expect(capabilitiesMissing(pay, { ...ALL_CAPABILITIES_ON, cards: false })).toEqual([]);
    expect(
      capabilitiesMissing(pay, { ...ALL_CAPABILITIES_ON, cards: false, transfersIn: false }),
    ).toEqual(['cards', 'transfersIn']);
  });

  it('needs nothing off where everything is on', () => {
    const everything = asks({
      payments: [{ type: 'immediate' }, { type: 'future' }],
      dataCategories: ['bvnData', 'ninData', 'userImages', 'bankAccounts'],
      hasForm: true,
      requiresAuth: true,
    });
    expect(capabilitiesMissing(everything, ALL_CAPABILITIES_ON)).toEqual([]);
  });
});

describe('the ways of linking a server offers', () => {
  const all = ['transactionService', 'altTransactionService', 'nibssAlt', 'card'] as const;

  it('offers every way a bank has where everything is on', () => {
    expect(linkWaysOn(all, ALL_CAPABILITIES_ON)).toEqual(all);
  });

  it('offers no alternate-service or paper mandate without a mandate service', () => {
    expect(linkWaysOn(all, PAYSTACK_LIVE)).toEqual(['transactionService', 'card']);
  });

  it('offers no mandate at all without debits, and no card link without card charges', () => {
    expect(linkWaysOn(all, { ...ALL_CAPABILITIES_ON, debits: false })).toEqual(['card']);
    expect(linkWaysOn(all, { ...ALL_CAPABILITIES_ON, cards: false, banks: false })).toEqual([
      'altTransactionService',
      'nibssAlt',
    ]);
  });
});

describe('the ways to pay a page offers', () => {
  const reader = (readerReachable: boolean) => ({ kind: 'reader', readerReachable }) as const;

  it('offers the chip terminal where its acquirer is on and this device reaches a reader', () => {
    expect(payMethodsOn(ALL_CAPABILITIES_ON, reader(true))).toEqual({
      transfer: true,
      card: true,
      terminal: true,
    });
    expect(payMethodsOn(ALL_CAPABILITIES_ON, reader(false)).terminal).toBe(false);
  });

  it('offers a terminal the server pushes to on any device, never with its acquirer off', () => {
    expect(payMethodsOn(ALL_CAPABILITIES_ON, { kind: 'push' }).terminal).toBe(true);
    const off = { ...ALL_CAPABILITIES_ON, acquirer: false };
    expect(payMethodsOn(off, { kind: 'push' }).terminal).toBe(false);
    expect(payMethodsOn(off, reader(true)).terminal).toBe(false);
  });
});

describe('providerRoles', () => {
  it('puts new work on the first and the rest standing by', () => {
    expect(providerRoles('cards', ['paystack', 'monnify'])).toEqual({
      serving: ['paystack'],
      standingBy: ['monnify'],
    });
  });

  it('has every provider serve its own notices, report and refunds at once', () => {
    for (const capability of ['notices', 'settlement', 'refunds'] as const) {
      expect(providerRoles(capability, ['paystack', 'sandbox', 'monnify'])).toEqual({
        serving: ['paystack', 'sandbox', 'monnify'],
        standingBy: [],
      });
    }
  });
});
