import { describe, expect, it } from 'vitest';
import { RETURN_TEXTS, returnAddress } from './return-url';

describe('returnAddress', () => {
  const granted = { consentId: 'cns_1', status: 'granted' };

  it('adds the consent id and status to the merchant’s own query', () => {
    expect(returnAddress('https://shop.example/orders/7?from=pay#top', false, granted)).toBe(
      'https://shop.example/orders/7?from=pay&consentId=cns_1&status=granted#top',
    );
    expect(
      returnAddress('https://shop.example/back', false, { consentId: 'cns_2', status: 'declined' }),
    ).toBe('https://shop.example/back?consentId=cns_2&status=declined');
  });

  it('replaces parameters of the same name rather than sending two', () => {
    expect(returnAddress('https://shop.example/b?status=x&consentId=y', false, granted)).toBe(
      'https://shop.example/b?status=granted&consentId=cns_1',
    );
  });

  it('sends nobody anywhere when embedded, without a URL, or before an answer', () => {
    expect(returnAddress('https://shop.example/b', true, granted)).toBeNull();
    expect(returnAddress(null, false, granted)).toBeNull();
    expect(returnAddress('not a url', false, granted)).toBeNull();
    expect(
      returnAddress('https://shop.example/b', false, { consentId: 'cns_1', status: 'pending' }),
    ).toBeNull();
  });
});

describe('RETURN_TEXTS', () => {
  it('counts down in whole seconds, naming the merchant', () => {
    expect(RETURN_TEXTS.counting('Tola Stores', 5)).toBe(
      'Taking you back to Tola Stores in 5 seconds.',
    );
    expect(RETURN_TEXTS.counting('Tola Stores', 1)).toBe(
      'Taking you back to Tola Stores in 1 second.',
    );
  });
});
