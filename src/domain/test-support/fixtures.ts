/**
 * Builders of domain values for tests only: the purity test treats this folder as test code, and
 * nothing outside tests imports it (test data never ships with the domain).
 */
import type { TConsent, TPayment } from '../schemas/consent';
import type { TUserAccount } from '../schemas/user-account';

export function aPayment(overrides: Partial<TPayment> = {}): TPayment {
  return {
    paymentId: 'pay_1',
    type: 'future',
    status: 'pending',
    executedAt: null,
    amount: 500_000,
    narration: 'Gym membership',
    dueDate: '2025-01-05',
    startDate: null,
    endDate: null,
    frequency: null,
    interval: null,
    amountType: 'fixed',
    paypointId: null,
    paypointDetails: null,
    shieldWallet: null,
    origin: null,
    ...overrides,
  };
}

export function anImmediatePayment(overrides: Partial<TPayment> = {}): TPayment {
  return aPayment({
    paymentId: 'pay_now',
    type: 'immediate',
    amount: 250_000,
    narration: 'First month',
    dueDate: null,
    shieldWallet: { bankName: 'Rubies MFB' },
    ...overrides,
  });
}

export function aConsent(overrides: Partial<TConsent> = {}): TConsent {
  return {
    consentId: 'cns_1',
    status: 'pending',
    grantedAt: null,
    expiresAt: '2030-01-01T00:00:00.000Z',
    counterparty: {
      name: 'FitLife Gym',
      image: null,
      tag: null,
      type: 'merchant',
      merchantId: 'mer_1',
      merchantColours: {
        primaryColour: '#FE7048',
        primaryText: '#FFFFFF',
        secondaryColour: '#1f2937',
        secondaryText: '#FFFFFF',
      },
    },
    party: null,
    actOnBehalfOf: null,
    payments: [],
    dataSharing: null,
    formId: null,
    formResponseId: null,
    formUpdateToken: null,
    formCompletion: null,
    requirements: { requiresAuth: false, requiresAccount: false },
    attestDiscoveryId: null,
    attestAuthAppId: null,
    authAppId: null,
    ...overrides,
  };
}

export function anAccount(overrides: Partial<TUserAccount> = {}): TUserAccount {
  return {
    bankId: 'bnk_1',
    accountNumber: '0123456789',
    accountName: 'Ada Obi',
    bankName: 'Access Bank',
    institutionCode: '000014',
    integrations: {
      transactionService: { possible: true, authorized: false, approved: false, linked: false },
    },
    ...overrides,
  };
}
