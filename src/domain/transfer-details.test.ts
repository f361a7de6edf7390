import { describe, expect, it } from 'vitest';
import { transferBankName } from './transfer-details';

describe('transferBankName', () => {
  it.each([
    ['Wema Bank', 'Wema Bank'],
    ['', 'Rubies MFB'],
    [null, 'Rubies MFB'],
    [undefined, 'Rubies MFB'],
  ])('%j → %j', (bankName, shown) => {
    expect(transferBankName(bankName)).toBe(shown);
  });
});
