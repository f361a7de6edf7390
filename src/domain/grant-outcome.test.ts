import { describe, expect, it } from 'vitest';
import { errorBody } from './errors';
import { grantOutcome } from './grant-outcome';
import type { TGrantResponse } from './schemas/consent-api';
import { aConsent, aPayment, anImmediatePayment } from './test-support/fixtures';

const futureOnly = aConsent({ payments: [aPayment()] });
const withImmediate = aConsent({ payments: [anImmediatePayment()] });
const granted = (over: Partial<TGrantResponse> = {}): TGrantResponse => ({
  success: true,
  consent: withImmediate,
  status: 'granted',
  ...over,
});

describe('grantOutcome', () => {
  it.each([
    ['no immediate payments', futureOnly, granted(), { kind: 'success' }],
    [
      'immediate payments, none failed',
      withImmediate,
      granted({ paymentResults: { total: 1, succeeded: 1, failed: 0 } }),
      { kind: 'success' },
    ],
    [
      "immediate payments, one failed with the bank's reason: the payer reads it",
      withImmediate,
      granted({
        paymentResults: { total: 1, succeeded: 0, failed: 1 },
        error: 'Direct debit payment failed: Insufficient funds',
      }),
      {
        kind: 'failed',
        message:
          'Direct debit payment failed: Insufficient funds. Some payments failed. Please try again.',
        parentError: 'Direct debit payment failed: Insufficient funds',
      },
    ],
    [
      'immediate payments, one failed without an error',
      withImmediate,
      granted({ paymentResults: { total: 1, succeeded: 0, failed: 1 } }),
      {
        kind: 'failed',
        message: 'Some payments failed. Please try again.',
        parentError: 'Direct debit payment failed',
      },
    ],
    [
      'immediate payments, no results reported',
      withImmediate,
      granted(),
      {
        kind: 'failed',
        message: 'Some payments failed. Please try again.',
        parentError: 'Direct debit payment failed',
      },
    ],
    [
      'the grant itself refused',
      futureOnly,
      errorBody('CONSENT_GRANT_FAILED'),
      {
        kind: 'failed',
        message: 'Failed to grant consent',
        parentError: 'Failed to grant consent',
      },
    ],
  ] as const)('%s', (_, consent, result, outcome) => {
    expect(grantOutcome(consent, result)).toEqual(outcome);
  });
});
