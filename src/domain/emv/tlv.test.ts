import { describe, expect, it } from 'vitest';
import { EmvFormatError } from './hex';
import { decodeTlv, encodeTlv, tlvValues, type TTlv } from './tlv';

const ARQC = '9F2608A1B2C3D4E5F60718';
const primitive = (tag: string, value: string): TTlv => ({ tag, constructed: false, value });

describe('BER-TLV', () => {
  it('reads one- and two-byte tags with their values', () => {
    expect(decodeTlv(`${ARQC}5F2A020156820219809C0110`)).toEqual([
      primitive('9F26', 'A1B2C3D4E5F60718'),
      primitive('5F2A', '0156'),
      primitive('82', '1980'),
      primitive('9C', '10'),
    ]);
  });

  it('reads a three-byte tag, and lower-case hex as upper case', () => {
    expect(decodeTlv('df8101020abc')).toEqual([primitive('DF8101', '0ABC')]);
  });

  it('reads the 0x81 and 0x82 length forms', () => {
    const long = 'AB'.repeat(200);
    const longer = 'CD'.repeat(300);
    expect(decodeTlv(`9F1081C8${long}`)).toEqual([primitive('9F10', long)]);
    expect(decodeTlv(`DF0182012C${longer}`)).toEqual([primitive('DF01', longer)]);
  });

  it('opens constructed tags into their objects', () => {
    const [template] = decodeTlv(`770F${ARQC}9F270180`);
    expect(template).toEqual({
      tag: '77',
      constructed: true,
      children: [primitive('9F26', 'A1B2C3D4E5F60718'), primitive('9F27', '80')],
    });
  });

  it('skips 00 padding between objects', () => {
    expect(decodeTlv(`00${ARQC}00009C0100`)).toEqual([
      primitive('9F26', 'A1B2C3D4E5F60718'),
      primitive('9C', '00'),
    ]);
  });

  it.each([
    ['odd-length hex', '9F2', 'icc_data: hex must have an even length'],
    ['not hex', '9F26zz', 'icc_data: must be hexadecimal'],
    [
      'a value past the end',
      '9F260AA1B2',
      'icc_data: the value of tag 9F26 runs past the end at byte 3',
    ],
    ['a tag without length', '9F26', 'icc_data: tag 9F26 has no length at byte 2'],
    ['a multi-byte tag cut short', '9F', 'icc_data: a multi-byte tag ends early at byte 1'],
    ['a four-byte tag', '9F8181010100', 'icc_data: a tag is longer than 3 bytes at byte 4'],
    [
      'the indefinite length',
      '9F2680A1',
      'icc_data: an indefinite length is not allowed at byte 3',
    ],
    [
      'a three-byte length',
      '9F2683000001AA',
      'icc_data: a length of 3 bytes is not allowed at byte 3',
    ],
    ['a 0x82 length cut short', '9F268201', 'icc_data: a length ends early at byte 4'],
    [
      'a child past its template',
      '77039F2608A1',
      'icc_data: the value of tag 9F26 runs past the end at byte 5',
    ],
  ])('refuses %s with a clear error', (_label, hex, message) => {
    expect(() => decodeTlv(hex)).toThrow(new EmvFormatError(message));
  });

  it('refuses templates nested past 8 deep', () => {
    let hex = '9C0100';
    for (let i = 0; i < 10; i += 1)
      hex = `70${(hex.length / 2).toString(16).padStart(2, '0')}${hex}`;
    expect(() => decodeTlv(hex)).toThrow(/nest deeper than 8/);
  });

  it('writes the shortest length form, and reads back what it wrote', () => {
    const objects: TTlv[] = [
      primitive('9F02', '000000250000'),
      primitive('9F10', '11'.repeat(128)),
      primitive('DF01', '22'.repeat(256)),
      { tag: '77', constructed: true, children: [primitive('9C', '10')] },
    ];
    const hex = encodeTlv(objects);
    expect(hex.startsWith('9F0206000000250000')).toBe(true);
    expect(hex).toContain(`9F108180${'11'.repeat(128)}`);
    expect(hex).toContain(`DF01820100${'22'.repeat(256)}`);
    expect(hex.endsWith('77039C0110')).toBe(true);
    expect(decodeTlv(hex)).toEqual(objects);
  });

  it('refuses to write a tag that is not one tag, or whose form disagrees with it', () => {
    expect(() => encodeTlv([primitive('9F', '00')])).toThrow(EmvFormatError);
    expect(() => encodeTlv([primitive('9C9C', '00')])).toThrow(/is not one tag/);
    expect(() => encodeTlv([primitive('77', '00')])).toThrow(/is a constructed tag/);
    expect(() => encodeTlv([primitive('9C', 'ABC')])).toThrow(/even length/);
  });

  it('lists primitive values by tag, templates opened, and refuses a tag given twice', () => {
    const values = tlvValues(decodeTlv(`7707${'9C0110'}9F270180${'9F0206000000000001'}`));
    expect(Object.fromEntries(values)).toEqual({
      '9C': '10',
      '9F27': '80',
      '9F02': '000000000001',
    });
    expect(() => tlvValues(decodeTlv('9C01109C0100'))).toThrow(
      'icc_data: tag 9C is given more than once',
    );
  });
});
