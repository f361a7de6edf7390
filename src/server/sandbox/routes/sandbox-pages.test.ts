// The sandbox's pages for people: /sandbox lists the test data and sends
// transfers and expiries through its script; /sandbox/3ds/{reference} is the issuer's challenge.
// Both exist only in sandbox mode. The scripts run here in jsdom against a stubbed fetch.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatCardNumberInput } from '../../../domain/card-number';
import { formatNaira } from '../../../domain/money';
import { formatNigerianPhone } from '../../../domain/schemas/auth';
import {
  SANDBOX_ACCOUNTS,
  SANDBOX_CARDS,
  SANDBOX_CHIP_CARDS,
  SANDBOX_PEOPLE,
  SANDBOX_READERS,
} from '../fixtures';
import { startPluginApp } from '../../testing/plugin-app';
import { sandboxPageRoutes } from './sandbox-pages';

/** jsdom, as far as these tests use it (the package ships no types). */
type TJsdom = new (
  html: string,
  options?: { url?: string; runScripts?: 'dangerously'; beforeParse?: (window: Window) => void },
) => { window: Window & typeof globalThis };
const { JSDOM } = createRequire(import.meta.url)('jsdom') as { JSDOM: TJsdom };

let ctx: Awaited<ReturnType<typeof startPluginApp>>;
beforeAll(async () => {
  ctx = await startPluginApp(sandboxPageRoutes);
});
afterAll(() => ctx.close());

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
const get = (url: string, headers: Record<string, string> = HTML) =>
  ctx.app.inject({ method: 'GET', url, headers });

const threeDsCard = () => {
  const card = SANDBOX_CARDS.find((c) => c.scenario === 'three_ds');
  if (!card) throw new Error('no three_ds fixture');
  return card;
};

/** A real challenge, raised as a card payment raises it; its page's path. */
async function challengePath(amount: number): Promise<string> {
  const { number, expiry, cvv, pin } = threeDsCard();
  const outcome = await ctx.context.sandbox!.cards.chargeCard({
    reference: `att_${amount}`,
    amount,
    narration: 'Sandbox page test',
    card: { number, expiry, cvv, pin },
  });
  if (outcome.kind !== 'three_ds_required') throw new Error(outcome.kind);
  return new URL(outcome.challengeUrl).pathname;
}

/** The page with its inline script run, fetch answered by `answer`. */
function browse(
  html: string,
  answer: (url: string, init: RequestInit) => unknown,
  /** Where the page is, for a script that navigates (jsdom's default, about:blank, cannot). */
  url?: string,
) {
  const fetch = vi.fn(async (url: string, init: RequestInit) => ({
    json: async () => answer(url, init),
  }));
  const dom = new JSDOM(html, {
    ...(url ? { url } : {}),
    runScripts: 'dangerously',
    beforeParse(window) {
      Object.assign(window, { fetch });
    },
  });
  return { document: dom.window.document, window: dom.window, fetch };
}

const CREDITED = {
  success: true,
  outcome: 'credited',
  message: 'Transfer received: the payment is complete.',
};

/** /sandbox with 'Send a transfer' filled in by name and submitted, fetch answered by `answer`. */
async function submitTransfer(
  fields: Record<string, string>,
  answer: () => unknown = () => CREDITED,
) {
  const page = await get('/sandbox');
  const browsed = browse(page.body, answer);
  const form = browsed.document.querySelector<HTMLFormElement>('form#transfer')!;
  for (const [name, value] of Object.entries(fields)) {
    form.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`)!.value = value;
  }
  form.dispatchEvent(new browsed.window.Event('submit', { cancelable: true }));
  return browsed;
}

const nonceOf = (csp: string, directive: 'script-src' | 'style-src') =>
  new RegExp(`${directive} [^;]*'nonce-([^']+)'`).exec(csp)?.[1];

describe('GET /sandbox', () => {
  it('lists every test person, card and account, and the three forms with a label on every input', async () => {
    const page = await get('/sandbox');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<html lang="en-NG">');
    expect(page.body).toContain('<h1>Sandbox network</h1>');
    expect(page.body).toContain('Nothing here moves real money');
    for (const card of SANDBOX_CARDS) {
      expect(page.body).toContain(formatCardNumberInput(card.number));
      expect(page.body).toContain(card.description);
    }
    for (const account of SANDBOX_ACCOUNTS) expect(page.body).toContain(account.accountNumber);
    // The card reader's chip cards (with their PINs) and the registered readers.
    for (const card of SANDBOX_CHIP_CARDS) {
      expect(page.body).toContain(formatCardNumberInput(card.number));
      expect(page.body).toContain(card.description);
    }
    for (const reader of SANDBOX_READERS) expect(page.body).toContain(reader.serial);
    expect(page.body.match(/<caption>/g)).toHaveLength(6);

    const { document } = new JSDOM(page.body).window;
    // Each card's row names the test account it is issued on, the one it links.
    const cardRows = [...document.querySelectorAll('#cards tbody tr')];
    expect(
      cardRows.map((row) => row.querySelector('[data-label="Issued on"]')?.textContent),
    ).toEqual(SANDBOX_CARDS.map((card) => expect.stringContaining(card.account.accountNumber)));
    const transfer = document.querySelector('form#transfer');
    const expire = document.querySelector('form#expire');
    expect(transfer?.textContent).toContain('Send a transfer');
    expect(expire?.querySelector('button')?.textContent).toBe('Expire this account now');
    // The BVN registry's people: BVN, name, date of birth, the phone the BVN is registered with.
    const people = [...document.querySelectorAll('#people tbody tr')].map((row) =>
      [...row.querySelectorAll('th, td')].slice(0, 4).map((cell) => cell.textContent),
    );
    expect(people).toEqual(
      SANDBOX_PEOPLE.map((p) => [
        p.bvn,
        p.fullName,
        p.dateOfBirth,
        formatNigerianPhone(p.phoneNumber),
      ]),
    );
    expect(document.querySelector('#people')?.textContent).toContain(
      'Registered to 0803 000 0042, an old line',
    );
    const accountRows = [...document.querySelectorAll('#accounts tbody tr')];
    expect(
      accountRows.map((row) => row.querySelector('[data-label="Holder BVN"]')?.textContent),
    ).toEqual(SANDBOX_ACCOUNTS.map((account) => account.bvn));
    expect(document.querySelector('form#person button')?.textContent).toBe('Create test person');
    const inputs = [...document.querySelectorAll('input')];
    expect(inputs).toHaveLength(5);
    for (const input of inputs) {
      expect(document.querySelector(`label[for="${input.id}"]`)?.textContent).toBeTruthy();
    }
    expect(document.querySelector('a[href="/sandbox/messages"]')).not.toBeNull();
  });

  it('runs its script and styles only with the nonce of its own CSP, which lets it call us', async () => {
    const page = await get('/sandbox');
    const csp = String(page.headers['content-security-policy']);
    const nonce = nonceOf(csp, 'script-src');
    expect(nonce).toBeTruthy();
    expect(nonceOf(csp, 'style-src')).toBe(nonce);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.body).toContain(`<script nonce="${nonce}">`);
    expect(page.body).toContain(`<style nonce="${nonce}">`);
    expect(page.body.match(/<script/g)).toHaveLength(1);
    expect(page.body).not.toMatch(/\son[a-z]+=|src="http|href="http/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect((await get('/sandbox')).headers['content-security-policy']).not.toBe(csp);
  });

  it.each([
    ['2500.00', 250_000],
    ['2,500.5', 250_050],
    ['0.29', 29],
    ['19.99', 1_999],
    ['₦ 1,000,000', 100_000_000],
  ])('sends %s naira as exactly %i kobo, and shows the answer', async (typed, kobo) => {
    const { document, fetch } = await submitTransfer({
      accountNumber: '9912345678',
      amount: typed,
    });
    await vi.waitFor(() =>
      expect(document.getElementById('transfer-status')?.textContent).toBe(
        'Transfer received: the payment is complete.',
      ),
    );
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/sandbox/transfers');
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body as string)).toEqual({ accountNumber: '9912345678', amount: kobo });
    expect(document.getElementById('transfer-status')?.getAttribute('role')).toBe('status');
  });

  it.each(['', '12.345', '1e3', '-5', '0', 'ten'])(
    'refuses the amount "%s" without calling the server',
    async (typed) => {
      const { document, fetch } = await submitTransfer(
        { accountNumber: '9912345678', amount: typed },
        () => ({}),
      );
      expect(document.getElementById('transfer-status')?.textContent).toBe(
        'Enter the amount in naira, for example 2500.00.',
      );
      expect(fetch).not.toHaveBeenCalled();
    },
  );

  it("offers every test account as the sender in a labelled 'From account' select, Unknown sender first", async () => {
    const page = await get('/sandbox');
    const { document } = new JSDOM(page.body).window;
    const select = document.querySelector<HTMLSelectElement>('form#transfer select[name="from"]');
    expect(select).not.toBeNull();
    expect(document.querySelector(`label[for="${select!.id}"]`)?.textContent).toBe('From account');
    const options = [...select!.options].map((o) => [o.value, o.textContent]);
    expect(options[0]).toEqual(['', 'Unknown sender']);
    expect(select!.value).toBe('');
    expect(options.slice(1)).toEqual(
      SANDBOX_ACCOUNTS.map((a) => [
        `${a.institutionCode}:${a.accountNumber}`,
        expect.stringMatching(new RegExp(`^.+ · ${a.accountNumber} · ${a.accountName}$`)),
      ]),
    );
    expect(options[1]?.[1]).toBe('Guaranty Trust Bank · 0123456785 · Adaeze Okafor');
  });

  it("sends the chosen test account as the transfer's `from`", async () => {
    const { fetch } = await submitTransfer({
      accountNumber: '9912345678',
      amount: '2500',
      from: '044:0690000018',
    });
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(JSON.parse(fetch.mock.calls[0]![1].body as string)).toEqual({
      accountNumber: '9912345678',
      amount: 250_000,
      from: { institutionCode: '044', accountNumber: '0690000018' },
    });
  });

  it("shows the catalogue's message when a call fails", async () => {
    const { document } = await submitTransfer(
      { accountNumber: '9912345678', amount: '10' },
      () => ({
        success: false,
        error: { code: 'NOT_FOUND', message: 'Not found' },
      }),
    );
    await vi.waitFor(() =>
      expect(document.getElementById('transfer-status')?.textContent).toBe('Not found'),
    );
  });

  it("mints a test person from 'New test person', shows their BVN, accounts and cards, and offers their accounts as senders", async () => {
    const person = {
      bvn: '22512345678',
      fullName: 'Kemi <b>Adeyemi</b>',
      dateOfBirth: '1991-03-04',
      phoneNumber: '+2348035550101',
      accounts: [
        {
          scenario: 'links_by_test_transfer',
          institutionCode: '058',
          bankName: 'Guaranty Trust Bank',
          accountNumber: '0987654321',
          accountName: 'Kemi <b>Adeyemi</b>',
        },
      ],
      cards: [
        {
          scenario: 'pin_only',
          number: '4111220000000003',
          expiry: '12/30',
          cvv: '408',
          pin: '1234',
          otp: '123456',
          account: { institutionCode: '058', accountNumber: '0987654321' },
        },
      ],
    };
    const page = await get('/sandbox');
    const { document, window, fetch } = browse(page.body, () => ({ success: true, person }));
    const form = document.querySelector<HTMLFormElement>('form#person')!;
    form.querySelector<HTMLInputElement>('[name="fullName"]')!.value = ' Kemi <b>Adeyemi</b> ';
    form.querySelector<HTMLInputElement>('[name="phoneNumber"]')!.value = '0803 555 0101';
    form.dispatchEvent(new window.Event('submit', { cancelable: true }));
    await vi.waitFor(() =>
      expect(document.getElementById('person-status')?.textContent).toContain(
        'Created Kemi <b>Adeyemi</b>, BVN 22512345678',
      ),
    );
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/sandbox/people');
    expect(JSON.parse(init.body as string)).toEqual({
      fullName: 'Kemi <b>Adeyemi</b>',
      phoneNumber: '0803 555 0101',
    });
    const details = document.getElementById('person-details')!;
    expect(details.hidden).toBe(false);
    // The answer is shown as text, never as markup.
    expect(details.querySelector('b')).toBeNull();
    expect(details.textContent).toContain('+2348035550101');
    expect(details.textContent).toContain('1991-03-04');
    expect(details.textContent).toContain('4111 2200 0000 0003');
    expect(details.querySelectorAll('caption')).toHaveLength(2);
    const from = document.querySelector<HTMLSelectElement>('#transfer-from')!;
    expect([...from.options].at(-1)?.value).toBe('058:0987654321');
  });

  it("sends an empty 'New test person' as no name and no phone, and shows a refusal's message", async () => {
    const page = await get('/sandbox');
    const { document, window, fetch } = browse(page.body, () => ({
      success: false,
      error: { code: 'PHONE_NUMBER_INVALID', message: 'Enter a valid Nigerian mobile number' },
    }));
    const form = document.querySelector<HTMLFormElement>('form#person')!;
    form.dispatchEvent(new window.Event('submit', { cancelable: true }));
    await vi.waitFor(() =>
      expect(document.getElementById('person-status')?.textContent).toBe(
        'Enter a valid Nigerian mobile number',
      ),
    );
    expect(JSON.parse(fetch.mock.calls[0]![1].body as string)).toEqual({});
    expect(document.getElementById('person-details')?.hidden).toBe(true);
  });

  it('expires a one-time account through its own call, and says so', async () => {
    const page = await get('/sandbox');
    const { document, window, fetch } = browse(page.body, () => ({
      success: true,
      expiresAt: '2030-01-01T12:00:00.000Z',
    }));
    const form = document.querySelector<HTMLFormElement>('form#expire')!;
    form.querySelector<HTMLInputElement>('[name="accountNumber"]')!.value = '9912345678';
    form.dispatchEvent(new window.Event('submit', { cancelable: true }));
    await vi.waitFor(() =>
      expect(document.getElementById('expire-status')?.textContent).toContain(
        'Account 9912345678 expired at',
      ),
    );
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/sandbox/virtual-accounts/9912345678/expire');
    expect(init.method).toBe('POST');
  });
});

describe('GET /sandbox/3ds/:reference', () => {
  it('shows the amount and the last 4 digits of the card, never its number', async () => {
    const page = await get(await challengePath(250_000));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>3-D Secure check</h1>');
    expect(page.body).toContain(formatNaira(250_000));
    const { number } = threeDsCard();
    expect(page.body).toContain(`</span>${number.slice(-4)}</dd>`);
    expect(page.body).not.toContain(number);
    expect(page.body).not.toContain(formatCardNumberInput(number));
    // The reference carries the first 6 (the network's own); the page shows only the last 4.
    const shown = new JSDOM(page.body).window.document.body.textContent ?? '';
    expect(shown).toContain(number.slice(-4));
    expect(shown).not.toContain(number.slice(0, 6));
  });

  it('runs its script with the nonce of its own CSP, and cannot be framed', async () => {
    const page = await get(await challengePath(100));
    const csp = String(page.headers['content-security-policy']);
    const nonce = nonceOf(csp, 'script-src');
    expect(nonce).toBeTruthy();
    expect(page.body).toContain(`<script nonce="${nonce}">`);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('posts the answer, shows the message, then disables both buttons', async () => {
    const path = await challengePath(123_456);
    const page = await get(path);
    const { document, window, fetch } = browse(page.body, () => ({
      success: true,
      status: 'completed',
      message: 'Payment approved.',
    }));
    const buttons = [...document.querySelectorAll('button')];
    expect(buttons.map((b) => b.textContent)).toEqual(['Approve', 'Decline']);
    buttons[0]!.dispatchEvent(new window.MouseEvent('click'));
    await vi.waitFor(() =>
      expect(document.getElementById('challenge-status')?.textContent).toBe(
        'Payment approved.You can close this tab and return to the payment.',
      ),
    );
    expect(buttons.every((b) => b.disabled)).toBe(true);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(`/api/sandbox/3ds/${path.split('/').pop()}`);
    expect(JSON.parse(init.body as string)).toEqual({ approved: true });
  });

  it('keeps the buttons when the answer fails, with its message', async () => {
    const page = await get(await challengePath(500));
    const { document, window, fetch } = browse(page.body, () => ({
      success: false,
      error: { code: 'THREE_DS_FAILED', message: '3DS authentication failed' },
    }));
    const decline = [...document.querySelectorAll('button')][1]!;
    decline.dispatchEvent(new window.MouseEvent('click'));
    await vi.waitFor(() =>
      expect(document.getElementById('challenge-status')?.textContent).toBe(
        '3DS authentication failed',
      ),
    );
    expect(decline.disabled).toBe(false);
    expect(JSON.parse(fetch.mock.calls[0]![1].body as string)).toEqual({ approved: false });
  });

  it('answers an unknown challenge with a 404 page, or the catalogue for a script', async () => {
    const unknown = '/sandbox/3ds/sbx_ch_bm90IGpzb24';
    const page = await get(unknown);
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('This challenge does not exist or has already been answered.');
    const api = await get(unknown, {});
    expect(api.statusCode).toBe(404);
    expect(api.json().error.code).toBe('NOT_FOUND');
  });

  it('goes back to the consent page that opened it in its own window, and to no other place', async () => {
    const back = '/r/cons_1?clientId=cli_1&embed=false';
    const path = await challengePath(700);
    const page = await get(`${path}?return=${encodeURIComponent(back)}`);
    const { document, window } = browse(
      page.body,
      () => ({ success: true, status: 'completed', message: 'Payment approved.' }),
      `http://localhost${path}`,
    );
    expect(document.getElementById('challenge')?.dataset.return).toBe(back);
    document.querySelector('button')!.dispatchEvent(new window.MouseEvent('click'));
    await vi.waitFor(() =>
      expect(document.getElementById('challenge-status')?.textContent).toBe(
        'Payment approved.Returning to the payment...',
      ),
    );
    for (const elsewhere of ['https://evil.example/r/x', '//evil.example/r/x', '/api/health']) {
      const refused = await get(`${path}?return=${encodeURIComponent(elsewhere)}`);
      expect(refused.body, elsewhere).not.toContain('data-return');
    }
    const gone = await get(`/sandbox/3ds/sbx_ch_bm90IGpzb24?return=${encodeURIComponent(back)}`);
    expect(gone.statusCode).toBe(404);
    const link = new JSDOM(gone.body).window.document.querySelector('a');
    expect(link?.textContent).toBe('Return to the payment');
    expect(link?.getAttribute('href')).toBe(back);
  });

  it('answers a reference that is not base64url, or too long, with a catalogue 400', async () => {
    for (const reference of ['a.b', 'a/b', '%3Cscript%3E', 'a'.repeat(601)]) {
      const response = await get(`/sandbox/3ds/${reference}`);
      expect(response.statusCode, reference).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_FAILED');
    }
  });
});

describe('without the sandbox', () => {
  it('serves none of the sandbox pages', async () => {
    const real = await startPluginApp(sandboxPageRoutes, { sandbox: null });
    try {
      for (const url of ['/sandbox', await challengePath(100)]) {
        const response = await real.app.inject({ url, headers: HTML });
        expect(response.statusCode, url).toBe(404);
        expect(response.json().error.code).toBe('NOT_FOUND');
      }
    } finally {
      await real.close();
    }
  });
});
