import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sealingKey, sealText, unsealText } from './sealing';

describe('sealText', () => {
  const key = sealingKey(randomBytes(32), 'salt', 'info');

  it('opens only with its key and its label', () => {
    const sealed = sealText('a server secret', key, 'auth-token-secret');
    expect(sealed).toMatch(/^v1\.[\w-]+$/);
    expect(sealed).not.toContain('secret');
    expect(unsealText(sealed, key, 'auth-token-secret')).toBe('a server secret');
    expect(() => unsealText(sealed, key, 'card-key-seal')).toThrow();
    expect(() => unsealText(sealed, key)).toThrow();
    expect(() => unsealText(sealed, sealingKey(randomBytes(32), 'salt', 'info'))).toThrow();
    expect(() => unsealText('v1.AAAA', key)).toThrow('A sealed text is cut short');
  });

  it('derives another key for another label of use', () => {
    const secret = randomBytes(32);
    expect(sealingKey(secret, 'salt', 'one').equals(sealingKey(secret, 'salt', 'two'))).toBe(false);
  });
});
