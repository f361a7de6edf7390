import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toJSONSchema } from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import {
  isPrintableText,
  isStorableText,
  ZIdentifier,
  ZIsoDate,
  ZIsoDateTime,
  ZPrintable,
  ZStorable,
  ZText,
} from './fields';
import { ZCreateConsentRequest } from './merchant-api';

describe('printable text', () => {
  it.each([
    ['a NUL byte', 'Order\u0000 17'],
    ['a lone high surrogate', 'Order \ud800'],
    ['a lone low surrogate', '\udc00 Order'],
    ['a line feed', 'Order\n17'],
    ['DEL', 'Order\u007f'],
    ['a right-to-left override', 'Order \u202e71'],
    ['a directional isolate', 'Order \u2066x\u2069'],
  ])('refuses %s', (_name, text) => {
    expect(isPrintableText(text)).toBe(false);
    expect(ZText(100).safeParse(text).success).toBe(false);
    expect(ZPrintable(100).safeParse(text).success).toBe(false);
  });

  it.each([
    ['Yoruba with diacritics', 'Ọlábísí Ògúnlẹ̀'],
    ['Hausa hooked letters', 'Ɗanladi Ƙauran'],
    ['an emoji (a surrogate pair)', 'Jollof 🍛 Friday'],
    ['the naira sign', '₦2,500 order'],
  ])('accepts %s', (_name, text) => {
    expect(isPrintableText(text)).toBe(true);
    expect(ZText(100).parse(text)).toBe(text);
  });

  it('trims text a person reads, and refuses it empty or too long', () => {
    expect(ZText(10).parse('  Gym  ')).toBe('Gym');
    expect(ZText(10).safeParse('   ').success).toBe(false);
    expect(ZText(10).safeParse('x'.repeat(11)).success).toBe(false);
  });

  it('takes identifiers as visible ASCII only', () => {
    expect(ZIdentifier.parse('cns_3k9-Ab')).toBe('cns_3k9-Ab');
    for (const bad of ['', 'a b', 'cns_\u0000', 'cns_é', 'x'.repeat(101)]) {
      expect(ZIdentifier.safeParse(bad).success).toBe(false);
    }
  });
});

describe('dates', () => {
  it.each([
    '0000-01-01T00:00:00Z',
    '1999-12-31T23:59:59Z',
    '2101-01-01T00:00:00Z',
    '9999-12-31T23:59:59Z',
  ])('refuses %s, outside 2000 to 2100', (date) => {
    expect(ZIsoDateTime.safeParse(date).success).toBe(false);
    expect(ZIsoDate.safeParse(date).success).toBe(false);
  });

  it('accepts the edges of the range and plain dates', () => {
    expect(ZIsoDateTime.safeParse('2000-01-01T00:00:00Z').success).toBe(true);
    expect(ZIsoDateTime.safeParse('2100-12-31T23:59:59Z').success).toBe(true);
    expect(ZIsoDate.safeParse('2027-01-01').success).toBe(true);
    expect(ZIsoDate.safeParse('2027-02-30').success).toBe(false);
  });

  it('reads the year as written, whatever the offset (up to ±23:59, as RFC 3339 allows)', () => {
    for (const date of ['2000-01-01T00:00:00+23:59', '2100-12-31T23:59:59-23:59']) {
      expect(ZIsoDateTime.safeParse(date).success).toBe(true);
      expect(ZIsoDate.safeParse(date).success).toBe(true);
    }
    expect(ZIsoDateTime.safeParse('1999-12-31T23:30:00-01:00').success).toBe(false);
  });
});

type TStatedString = { pattern?: string; allOf?: Array<{ pattern?: string }> };

/**
 * What a validator of the OpenAPI document decides for the field's values: JSON Schema's
 * `pattern` is an ECMA-262 regular expression with the u flag, unanchored.
 */
function documentAllows(field: $ZodType): (value: string) => boolean {
  const schema = toJSONSchema(field, { io: 'input' }) as TStatedString & {
    anyOf?: TStatedString[];
    minLength?: number;
    maxLength?: number;
  };
  const matches = (value: string) => (part: TStatedString) =>
    [part.pattern, ...(part.allOf ?? []).map((p) => p.pattern)]
      .filter((pattern) => pattern !== undefined)
      .every((pattern) => new RegExp(pattern, 'u').test(value));
  return (value) => {
    const length = [...value].length;
    if (length < (schema.minLength ?? 0) || length > (schema.maxLength ?? Infinity)) return false;
    return schema.anyOf ? schema.anyOf.some(matches(value)) : matches(value)(schema);
  };
}

/** Any code point, lone surrogates too, and often one that a rule is about. */
const CHARACTER = fc.oneof(
  fc.constantFrom(' ', '\u00a0', '\u3000', '\ufeff', '\t', '\n', '\u0000', '\u0085', '\u202e'),
  fc.constantFrom('\u2066', '2', '0', '1', '-', 'T', ':', 'Z', '+', 'a'),
  fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code)),
);

describe('the pattern each field states in the OpenAPI document', () => {
  const fields = {
    ZText: ZText(20),
    ZPrintable: ZPrintable(20),
    ZStorable: ZStorable(20),
    ZIdentifier,
    ZIsoDateTime,
    ZIsoDate,
  };
  const values = [
    'a\u0000b',
    '\ud800',
    'a\udc00b',
    'a\u0001b',
    '\u007f\u0085',
    'a\r\nb',
    '\u202egnp.exe',
    '\u2066x\u2069',
    ' \u00a0\u3000\ufeff',
    '',
    'Jollof 🍛 Friday',
    'Ọlábísí Ògúnlẹ̀',
    '1999-12-31T23:59:59Z',
    '2101-01-01',
    '2000-01-01T00:00:00+23:59',
    '2100-12-31T23:59:59-16:00',
    '2027-06-01',
  ];

  it.each(Object.entries(fields))('%s: what the document allows, the field takes', (_, field) => {
    const allows = documentAllows(field);
    for (const value of values) {
      if (allows(value)) expect(field.safeParse(value).success, value).toBe(true);
    }
    fc.assert(
      fc.property(fc.string({ unit: CHARACTER, maxLength: 24 }), (value) => {
        if (!allows(value)) return;
        expect(field.safeParse(value).success, JSON.stringify(value)).toBe(true);
      }),
    );
  });

  it('refuses in the document what the fields refuse for what they are', () => {
    expect(documentAllows(ZText(20))('Order\u0000 17')).toBe(false);
    expect(documentAllows(ZText(20))(' \u00a0 ')).toBe(false);
    expect(documentAllows(ZPrintable(20))('Order \u202e71')).toBe(false);
    expect(documentAllows(ZStorable(20))('a\ud800')).toBe(false);
    expect(documentAllows(ZStorable(20))('line\nbreak')).toBe(true);
    expect(documentAllows(ZIsoDateTime)('1999-12-31T23:59:59Z')).toBe(false);
    expect(documentAllows(ZIsoDate)('2101-01-01')).toBe(false);
    expect(isStorableText('a\u0000')).toBe(false);
  });
});

describe('consent requests', () => {
  const future = { type: 'future', amount: 100, narration: 'Rent' } as const;

  it('refuses a consent that asks for nothing', () => {
    for (const body of [{}, { payments: [] }, { dataSharing: { bvnData: false } }]) {
      const parsed = ZCreateConsentRequest.safeParse(body);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(
        'a consent must ask for a payment, data sharing or a form',
      );
    }
    expect(ZCreateConsentRequest.safeParse({ formId: 'frm_1' }).success).toBe(true);
    expect(ZCreateConsentRequest.safeParse({ dataSharing: { ninData: true } }).success).toBe(true);
  });

  it('refuses an endDate before the startDate, naming endDate', () => {
    const parsed = ZCreateConsentRequest.safeParse({
      payments: [{ ...future, startDate: '2027-06-01', endDate: '2027-05-01' }],
    });
    expect(parsed.error?.issues[0]?.path).toEqual(['payments', 0, 'endDate']);
    const sameDay = { ...future, startDate: '2027-06-01', endDate: '2027-06-01' };
    expect(ZCreateConsentRequest.safeParse({ payments: [sameDay] }).success).toBe(true);
  });

  it('refuses 50,000 data-sharing sub-items', () => {
    const items = Array.from({ length: 50_000 }, (_, i) => `item${i}`);
    const parsed = ZCreateConsentRequest.safeParse({ dataSharing: { bvnData: items } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['dataSharing', 'bvnData']);
  });
});
