// Bank and card-scheme logos drawn by the server (spec §7, §8 "Logo image failure: Falls back to
// a default logo"): SVG with no script, cached for a day, a default for an unknown bank, and for
// any while the banks' list cannot be read, cached only until it is asked for again.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contrastRatio } from '../../domain/colour-contrast';
import { usable } from '../providers/off';
import { SANDBOX_BANKS } from '../sandbox/fixtures';
import { startPluginApp } from '../testing/plugin-app';
import { testClock } from '../testing/test-app';
import { NAMES_KEPT_MS, UNREADABLE_FOR_MS } from '../services/bank-names';
import { logoRoutes } from './bank-logos';
import { monogramColours, monogramLetters } from './logo-svg';

const clock = testClock('2027-03-02T10:00:00Z');
let ctx: Awaited<ReturnType<typeof startPluginApp>>;
beforeAll(async () => {
  ctx = await startPluginApp(logoRoutes, { clock });
});
afterAll(() => ctx.close());

const get = (url: string) => ctx.app.inject({ method: 'GET', url });

function expectCachedSvg(response: Awaited<ReturnType<typeof get>>) {
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('image/svg+xml');
  expect(response.headers['cache-control']).toBe('public, max-age=86400');
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]* role="img">/);
  expect(response.body.toLowerCase()).not.toContain('<script');
  expect(response.body).not.toMatch(/\son\w+=|href=|<foreignObject/i);
}

describe('GET /api/bank-logos/:institutionCode', () => {
  it("draws a known bank's monogram, titled with its name", async () => {
    const response = await get('/api/bank-logos/058');
    expectCachedSvg(response);
    expect(response.body).toContain('<title>Guaranty Trust Bank</title>');
    expect(response.body).toContain('>GT</text>');
  });

  it('draws the same logo for a code every time, and another colour for another bank', async () => {
    const [first, again, other] = await Promise.all(
      ['044', '044', '057'].map((code) => get(`/api/bank-logos/${code}`)),
    );
    expect(again?.body).toBe(first?.body);
    expect(monogramColours('044').background).not.toBe(monogramColours('057').background);
    expect(other?.body).toContain('<title>Zenith Bank</title>');
  });

  it("names the bank as the banks capability's list does, and draws the default while it cannot be read", async () => {
    const banks = usable(ctx.context.providers.payments.banks);
    // Past what earlier tests read of the list: the names are kept a minute.
    clock.advance(NAMES_KEPT_MS + 1);
    const listed = vi
      .spyOn(banks, 'listBanks')
      .mockResolvedValueOnce([{ institutionCode: '058', name: 'GTBank', integrations: [] }])
      .mockRejectedValueOnce(new Error('The provider did not answer'));
    // A page's logos at once share one read of the list.
    const named = await Promise.all(
      ['058', '058', '044'].map((code) => get(`/api/bank-logos/${code}`)),
    );
    for (const logo of named) expectCachedSvg(logo);
    expect(named[0]?.body).toContain('<title>GTBank</title>');
    expect(named[2]?.body).toContain('<title>Bank</title>');
    expect(listed).toHaveBeenCalledTimes(1);

    // The list unreadable: the default, kept by the browser only as long as the list is left
    // unasked, and the provider asked once for all the logos meanwhile.
    clock.advance(NAMES_KEPT_MS + 1);
    const unreadable = await Promise.all(
      ['058', '044'].map((code) => get(`/api/bank-logos/${code}`)),
    );
    for (const logo of unreadable) {
      expect(logo.statusCode).toBe(200);
      expect(logo.headers['cache-control']).toBe(`public, max-age=${UNREADABLE_FOR_MS / 1_000}`);
      expect(logo.body).toContain('<title>Bank</title>');
    }
    expect((await get('/api/bank-logos/058')).body).toContain('<title>Bank</title>');
    expect(listed).toHaveBeenCalledTimes(2);

    // Asked again once that time is past: the provider answers, and the bank has its own.
    clock.advance(UNREADABLE_FOR_MS + 1);
    const back = await get('/api/bank-logos/058');
    expectCachedSvg(back);
    expect(back.body).toContain('<title>Guaranty Trust Bank</title>');
    expect(listed).toHaveBeenCalledTimes(3);
    listed.mockRestore();
  });

  it('answers an unknown code with the default bank logo', async () => {
    const response = await get('/api/bank-logos/99999');
    expectCachedSvg(response);
    expect(response.body).toContain('<title>Bank</title>');
  });

  it('answers a code that is not one with a catalogue 400', async () => {
    for (const code of ['ab', 'a-b-c', `${'1'.repeat(11)}`]) {
      const response = await get(`/api/bank-logos/${code}`);
      expect(response.statusCode).toBe(400);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.json()).toEqual({
        success: false,
        error: { code: 'VALIDATION_FAILED', message: expect.stringContaining('institutionCode') },
      });
    }
  });

  it('writes readable letters (4.5:1) on a colour of its own for every bank', () => {
    for (const code of [
      ...SANDBOX_BANKS.map((bank) => bank.institutionCode),
      '000',
      '999',
      '12345',
    ]) {
      const { background, text } = monogramColours(code);
      expect(background, code).toMatch(/^#[0-9a-f]{6}$/);
      // A colour, not black or grey: the hue is what tells banks apart.
      const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(background.slice(i, i + 2), 16));
      expect(Math.max(r!, g!, b!) - Math.min(r!, g!, b!), code).toBeGreaterThan(30);
      expect(contrastRatio(background, text), code).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('takes two letters from what names the bank, not from "Bank" or "Microfinance"', () => {
    expect(monogramLetters('Guaranty Trust Bank')).toBe('GT');
    expect(monogramLetters('Zenith Bank')).toBe('ZE');
    expect(monogramLetters('Kuda Microfinance Bank')).toBe('KU');
    expect(monogramLetters('United Bank for Africa')).toBe('UA');
    expect(monogramLetters('Bank')).toBe('BA');
  });
});

describe('GET /api/signed-url', () => {
  it.each([
    ['VISA', 'visa'],
    ['visa', 'visa'],
    ['Visa', 'visa'],
    ['Mastercard', 'mastercard'],
    ['Verve', 'verve'],
  ])('gives the address of our %s logo', async (scheme, file) => {
    const response = await get(`/api/signed-url?imageKey=logos/cardSchemes/${scheme}.png`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      url: `${ctx.config.publicUrl}/api/card-scheme-logos/${file}.svg`,
    });
  });

  it('answers 404 for a scheme it has no logo for', async () => {
    const response = await get('/api/signed-url?imageKey=logos/cardSchemes/Amex.png');
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('NOT_FOUND');
  });

  it('answers 400 for a key that is not a card scheme logo', async () => {
    const response = await get('/api/signed-url?imageKey=../../etc/passwd');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('VALIDATION_FAILED');
  });
});

describe('GET /api/card-scheme-logos/:scheme.svg', () => {
  it.each([
    ['visa', 'Visa'],
    ['mastercard', 'Mastercard'],
    ['verve', 'Verve'],
  ])('serves the %s mark the signed URL points to', async (scheme, title) => {
    const signed = await get(`/api/signed-url?imageKey=logos/cardSchemes/${title}.png`);
    const response = await get(new URL(signed.json().url).pathname);
    expectCachedSvg(response);
    expect(response.body).toContain(`<title>${title}</title>`);
    expect(scheme).toBeTruthy();
  });

  it('answers 404 for any other name', async () => {
    for (const url of ['/api/card-scheme-logos/amex.svg', '/api/card-scheme-logos/VISA.svg']) {
      const response = await get(url);
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('NOT_FOUND');
    }
  });
});
