import { describe, expect, it } from 'vitest';
import { EmvFormatError } from './hex';
import { formatTrack2, parseTrack2, serviceCodeHasChip } from './track2';

describe('track 2 equivalent data', () => {
  it("reads the chip's form: card number, D, expiry YYMM, service code, discretionary data, F fill", () => {
    expect(parseTrack2('5399830000000024D3110221123456789F')).toEqual({
      pan: '5399830000000024',
      expiry: '3110',
      serviceCode: '221',
      discretionary: '123456789',
    });
  });

  it("reads the stripe's form with '=' and its sentinels", () => {
    expect(parseTrack2(';4084080000000003=30121010000?')).toEqual({
      pan: '4084080000000003',
      expiry: '3012',
      serviceCode: '101',
      discretionary: '0000',
    });
  });

  it.each([
    ['no separator', '53998300000000243110221'],
    ['a short card number', '53998300D3110221'],
    ['a short expiry', '5399830000000024D311'],
    ['letters', '5399830000000024DABCD221'],
    ['empty', ''],
  ])('refuses %s', (_label, text) => {
    expect(() => parseTrack2(text)).toThrow(EmvFormatError);
  });

  it('refuses an expiry month outside 01–12', () => {
    expect(() => parseTrack2('5399830000000024D3113221')).toThrow(
      'track2: the expiry month is not 01–12',
    );
  });

  it('writes what it reads, with an F to fill the last byte', () => {
    const track = {
      pan: '5060990000000016',
      expiry: '3006',
      serviceCode: '601',
      discretionary: '',
    };
    expect(formatTrack2(track)).toBe('5060990000000016D3006601');
    expect(parseTrack2(formatTrack2(track))).toEqual(track);
    expect(formatTrack2({ ...track, discretionary: '1' })).toBe('5060990000000016D30066011F');
    expect(parseTrack2('5060990000000016D30066011F').discretionary).toBe('1');
  });

  it('tells a chip card (service code 2xx or 6xx) from a stripe-only one', () => {
    expect(serviceCodeHasChip('221')).toBe(true);
    expect(serviceCodeHasChip('601')).toBe(true);
    expect(serviceCodeHasChip('101')).toBe(false);
    expect(serviceCodeHasChip('501')).toBe(false);
  });
});
