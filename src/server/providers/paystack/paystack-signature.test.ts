import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isPaystackSignature } from './paystack-signature';

const KEY = 'sk_test_signature';
const sign = (body: string | Buffer, key = KEY) =>
  createHmac('sha512', key).update(body).digest('hex');

describe('Paystack notice signatures', () => {
  const body = Buffer.from(
    '{"event":"charge.success","data":{"reference":"att-0x","amount":5000}}',
  );

  it('accepts the HMAC-SHA512 of the raw body under our key, in either case of hex', () => {
    expect(isPaystackSignature(body, sign(body), KEY)).toBe(true);
    expect(isPaystackSignature(body, sign(body).toUpperCase(), KEY)).toBe(true);
  });

  it('refuses a signature of the same JSON written again with other spacing', () => {
    const rewritten = JSON.stringify(JSON.parse(body.toString()), null, 1);
    expect(isPaystackSignature(body, sign(rewritten), KEY)).toBe(false);
  });

  it('refuses another key, a changed body, no header, several headers and a short one', () => {
    expect(isPaystackSignature(body, sign(body, 'sk_test_other'), KEY)).toBe(false);
    const changed = Buffer.from(body.toString().replace('5000', '500000'));
    expect(isPaystackSignature(changed, sign(body), KEY)).toBe(false);
    expect(isPaystackSignature(body, undefined, KEY)).toBe(false);
    expect(isPaystackSignature(body, [sign(body), sign(body)], KEY)).toBe(false);
    expect(isPaystackSignature(body, sign(body).slice(0, 64), KEY)).toBe(false);
  });
});
