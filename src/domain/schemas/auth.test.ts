import { describe, expect, it } from 'vitest';
import { canonicalJson, formatNigerianPhone, grantSigningMessage, toNigerianE164 } from './auth';

describe('toNigerianE164', () => {
  it.each([
    ['08031234567', '+2348031234567'],
    ['0803 123 4567', '+2348031234567'],
    ['803-123-4567', '+2348031234567'],
    ['+234 803 123 4567', '+2348031234567'],
    ['2348031234567', '+2348031234567'],
    ['+234 (0)803 123 4567', '+2348031234567'],
    ['09061234567', '+2349061234567'],
    ['07011234567', '+2347011234567'],
  ])('reads %s as %s', (input, e164) => {
    expect(toNigerianE164(input)).toBe(e164);
  });

  it.each([
    '',
    '0803123456',
    '080312345678',
    '01234567890',
    '+44 7911 123456',
    '0803abc4567',
    '06031234567',
  ])('refuses %j', (input) => {
    expect(toNigerianE164(input)).toBeNull();
  });

  it('writes a number back the Nigerian way', () => {
    expect(formatNigerianPhone('+2348031234567')).toBe('0803 123 4567');
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[3,1]},"b":1}',
    );
  });

  it('leaves out undefined properties as JSON.stringify does', () => {
    expect(canonicalJson({ a: undefined, b: null })).toBe('{"b":null}');
  });

  it('refuses numbers JSON cannot hold', () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(TypeError);
  });

  it('binds the consent and the nonce into the signed message', () => {
    const message = grantSigningMessage({
      consentId: 'cns_1',
      nonce: 'n1',
      payload: { z: 1, a: 2 },
    });
    expect(message).toBe(
      '{"consentId":"cns_1","nonce":"n1","payload":{"a":2,"z":1},"type":"oya-money.consent-grant","version":1}',
    );
  });
});
