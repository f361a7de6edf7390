import { describe, expect, it } from 'vitest';
import { ARQC_TAGS, sandboxArqc, verifySandboxArqc } from './sandbox-emv';

describe('verifySandboxArqc', () => {
  const pan = '5061460410120223210';
  const fields = new Map(ARQC_TAGS.map((tag) => [tag, '0102']));
  const arqc = sandboxArqc(pan, fields) ?? '';

  it('accepts the card’s own cryptogram, in either case, and refuses another', () => {
    expect(verifySandboxArqc(pan, new Map([...fields, ['9F26', arqc]]))).toBe(true);
    expect(verifySandboxArqc(pan, new Map([...fields, ['9F26', arqc.toLowerCase()]]))).toBe(true);
    const other = `${arqc.slice(0, -1)}${arqc.endsWith('0') ? '1' : '0'}`;
    expect(verifySandboxArqc(pan, new Map([...fields, ['9F26', other]]))).toBe(false);
  });

  it('refuses a value of the right length that is not hex, rather than throwing', () => {
    const notHex = `${arqc.slice(0, -2)}ZZ`;
    expect(() => verifySandboxArqc(pan, new Map([...fields, ['9F26', notHex]]))).not.toThrow();
    expect(verifySandboxArqc(pan, new Map([...fields, ['9F26', notHex]]))).toBe(false);
    expect(verifySandboxArqc(pan, new Map([...fields, ['9F26', 'G'.repeat(16)]]))).toBe(false);
  });
});
