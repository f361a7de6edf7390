import { describe, expect, it } from 'vitest';
import { randomId } from '../../crypto/secret-hash';
import { fromPaystackReference, toPaystackReference } from './paystack-references';

/** What both of Paystack's reference kinds accept: transactions' and transfers'. */
const TRANSACTION_REFERENCE = /^[A-Za-z0-9.=-]+$/;
const TRANSFER_REFERENCE = /^[a-z0-9_-]+$/;

describe('Paystack references', () => {
  it('writes our ids in characters both transactions and transfers take, and reads them back', () => {
    const ids = [
      'att_contract_1764150000000_1',
      'pyo_Ab-_Zz09',
      randomId('att'),
      randomId('ref', 24),
      '-_-',
      'a.b=c d/é',
    ];
    for (const id of ids) {
      const written = toPaystackReference(id);
      expect(written).toMatch(TRANSACTION_REFERENCE);
      expect(written).toMatch(TRANSFER_REFERENCE);
      expect(fromPaystackReference(written)).toBe(id);
    }
  });

  it('writes each id its own way: ids that differ only in case or in escapes stay apart', () => {
    const ids = ['att_ab', 'att_AB', 'att_aB', 'att-ab', 'att__ab', 'att_-ab', 'att-0ab', 'att=ab'];
    const written = ids.map(toPaystackReference);
    expect(new Set(written).size).toBe(ids.length);
    expect(toPaystackReference('att_Ab-x')).toBe('att-0-ab--x');
  });

  it('reads back only what it could have written: another system’s reference is not ours', () => {
    expect(fromPaystackReference('T123456789')).toBeNull();
    expect(fromPaystackReference('re4lyvq3s3.x')).toBeNull();
    expect(fromPaystackReference('abc-')).toBeNull();
    expect(fromPaystackReference('abc-2x')).toBeNull();
    // 'a' escaped is not how 'a' is written; nor is a byte that is not UTF-8.
    expect(fromPaystackReference('-161')).toBeNull();
    expect(fromPaystackReference('-1ff')).toBeNull();
    expect(fromPaystackReference('plain-0ref')).toBe('plain_ref');
  });
});
