import { describe, expect, it } from 'vitest';
import { buildPinBlock, parsePinBlock } from './pin-block';

describe('ISO 9564 format 0 PIN block', () => {
  it('XORs the PIN field with the 12 rightmost digits of the card number before its check digit', () => {
    // The standard's examples: PIN 1234 with these cards.
    expect(buildPinBlock('1234', '4111111111111111')).toBe('041225EEEEEEEEEE');
    expect(buildPinBlock('1234', '43219876543210987')).toBe('0412AC89ABCDEF67');
  });

  it('writes the length of longer PINs in the second nibble', () => {
    const block = buildPinBlock('123456789012', '4084080000000003');
    expect(block.slice(0, 2)).toBe('0C');
    expect(parsePinBlock(block, '4084080000000003')).toBe('123456789012');
  });

  it('reads back the PIN of the card it was built for, in either case', () => {
    expect(parsePinBlock('041225eeeeeeeeee', '4111111111111111')).toBe('1234');
  });

  it('refuses a block read with another card, as the fill no longer reads F', () => {
    expect(() => parsePinBlock('041225EEEEEEEEEE', '5399830000000024')).toThrow(
      'pin_block: is not a format 0 PIN block for this card',
    );
  });

  it.each([
    ['not 16 hex digits', '041225EEEEEE', '4111111111111111'],
    ['another format (1)', '141225EEEEEEEEEE', '4111111111111111'],
    ['a PIN length of 3', '031225EEEEEEEEEE', '4111111111111111'],
  ])('refuses %s', (_label, block, pan) => {
    expect(() => parsePinBlock(block, pan)).toThrow(/pin_block/);
  });

  it('refuses a PIN that is not 4 to 12 digits, and a card number that is not 13 to 19', () => {
    expect(() => buildPinBlock('123', '4111111111111111')).toThrow('pin: must be 4 to 12 digits');
    expect(() => buildPinBlock('12a4', '4111111111111111')).toThrow(/pin/);
    expect(() => buildPinBlock('1234', '411111111111')).toThrow('pan: must be 13 to 19 digits');
  });
});
