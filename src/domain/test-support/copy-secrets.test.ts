import { describe, expect, it } from 'vitest';
import { secretsInCopy } from './copy-secrets';

describe('secretsInCopy', () => {
  it('finds a PIN, a card number and a BVN under a key of any shape', () => {
    for (const key of ['pin', 'PIN', 'cardPin', 'card_pin', 'card-pin', 'cvv']) {
      expect(secretsInCopy({ card: { [key]: '1234' } }), key).toHaveLength(1);
    }
    for (const key of ['pan', 'cardPAN', 'card_pan', 'bvn', 'bvnNumber', 'BVN']) {
      expect(secretsInCopy({ [key]: '22212345678' }).length, key).toBeGreaterThan(0);
    }
    expect(secretsInCopy({ bvnHash: 'dGhpcyBpcyBhIGhhc2ggb2YgYSBidm4' })).toHaveLength(1);
  });

  it('finds a BVN or a card number in any text, but the digits the copy may hold', () => {
    expect(secretsInCopy({ note: 'paid with 5061020000000000094' })).toHaveLength(1);
    expect(secretsInCopy({ text: 'BVN 22212345678.' })).toHaveLength(1);
    expect(secretsInCopy({ phoneNumber: '08031234567' }, ['08031234567'])).toEqual([]);
  });

  it('lets a BVN’s last 4 digits, a masked card and the lists of lookups be', () => {
    expect(
      secretsInCopy({
        bvn: { last4: '5678', verifiedAt: '2031-05-31T09:00:00.000Z' },
        bvnLast4: '5678',
        card: { brand: 'verve', last4: '0094' },
        accountNumber: '****1234',
        bvnLookups: [{ kind: 'data_shared', received: ['bvn', 'fullName'] }],
        amount: 12_000_000_000,
      }),
    ).toEqual([]);
  });

  it('lets a hash or an id be, whose hex holds long runs of digits by chance', () => {
    const textHash = 'd4e1c0a7f9b2e6d8c3f5a0b14029187365402b9e8f7c6d5e4f3a2b1c0d9e8f7a';
    expect(secretsInCopy({ record: { textHash }, id: 'pay_73650194726a' })).toEqual([]);
  });
});
