import { describe, expect, it } from 'vitest';
import { isPrintableText, ZIdentifier, ZIsoDate, ZIsoDateTime, ZPrintable, ZText } from './fields';
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
