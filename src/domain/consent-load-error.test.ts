import { describe, expect, it } from 'vitest';
import { consentLoadErrorMessage, isConsentLoadRetryable } from './consent-load-error';

describe('consentLoadErrorMessage', () => {
  it.each([
    [404, 'Consent not found or has expired', 'Consent not found or has expired'],
    [
      403,
      'Unauthorized: This clientId is not authorized to access this consent',
      'Unauthorized: This clientId is not authorized to access this consent',
    ],
    [500, 'API request failed', 'Failed to load consent data'],
    [400, 'clientId URL parameter is required', 'Failed to load consent data'],
    [null, null, 'Failed to load consent data'],
    [404, null, 'Failed to load consent data'],
  ])('answers status %s with the spec text', (status, message, expected) => {
    expect(consentLoadErrorMessage(status, message)).toBe(expected);
  });
});

describe('isConsentLoadRetryable', () => {
  it.each([
    [null, true],
    [0, true],
    [500, true],
    [503, true],
    [429, true],
    [408, true],
    [404, false],
    [403, false],
    [400, false],
  ])('status %s → %s', (status, retryable) => {
    expect(isConsentLoadRetryable(status)).toBe(retryable);
  });
});
