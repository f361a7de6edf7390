import { describe, expect, it } from 'vitest';
import { amountToBcd, emvDateOf, readIccData, REQUIRED_ICC_TAGS } from './icc-data';
import { encodeTlv, type TTlv } from './tlv';

const FIELDS: Record<string, string> = {
  '9F26': 'A1B2C3D4E5F60718',
  '9F27': '80',
  '9F10': '06010A03A00000',
  '9F37': '1A2B3C4D',
  '9F36': '0042',
  '95': '0000008000',
  '9A': '270315',
  '9C': '10',
  '9F02': '000000250000',
  '5F2A': '0156',
  '82': '1980',
};

const iccWith = (change: Record<string, string | null> = {}) =>
  encodeTlv(
    Object.entries({ ...FIELDS, ...change })
      .filter((entry): entry is [string, string] => entry[1] !== null)
      .map(([tag, value]): TTlv => ({ tag, constructed: false, value })),
  );

describe('the chip data of a purchase', () => {
  it('reads the amount in kobo, currency, type and date, and that the card asks to go online', () => {
    const icc = readIccData(iccWith());
    expect(icc).toMatchObject({
      amount: 250_000,
      currencyCode: '0156',
      transactionType: '10',
      transactionDate: '270315',
      asksOnline: true,
    });
    expect(icc.values.get('9F26')).toBe('A1B2C3D4E5F60718');
  });

  it('says when the card declined offline (AAC) or approved offline (TC) instead', () => {
    expect(readIccData(iccWith({ '9F27': '00' })).asksOnline).toBe(false);
    expect(readIccData(iccWith({ '9F27': '40' })).asksOnline).toBe(false);
  });

  it.each(Object.keys(REQUIRED_ICC_TAGS))('refuses chip data without tag %s', (tag) => {
    expect(() => readIccData(iccWith({ [tag]: null }))).toThrow(
      new RegExp(`^icc_data: tag ${tag} \\(.+\\) is missing$`),
    );
  });

  it('refuses a required tag of the wrong length, BCD fields with letters, and a date that is none', () => {
    expect(() => readIccData(iccWith({ '9F26': 'A1B2' }))).toThrow(
      'icc_data: tag 9F26 (application cryptogram (ARQC)) has 2 bytes',
    );
    expect(() => readIccData(iccWith({ '9F02': '00000025000A' }))).toThrow(
      'icc_data: tag 9F02 must be BCD digits',
    );
    expect(() => readIccData(iccWith({ '9A': '271332' }))).toThrow(/9A .* is not a date/);
  });

  it('writes amounts as 12 BCD digits, and refuses what does not fit', () => {
    expect(amountToBcd(250_000)).toBe('000000250000');
    expect(() => amountToBcd(1e12)).toThrow(/12 digits/);
    expect(() => amountToBcd(-1)).toThrow(/12 digits/);
  });
});

describe('emvDateOf', () => {
  it('is the date as written, in the date-time’s own offset (the reader’s 9A)', () => {
    expect(emvDateOf('2027-03-15T09:30:00Z')).toBe('270315');
    expect(emvDateOf('2027-03-15T23:30:00+01:00')).toBe('270315');
    expect(emvDateOf('2027-12-31T23:59:59.999Z')).toBe('271231');
  });
});
