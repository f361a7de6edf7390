// @vitest-environment jsdom
// The consent's first screen drawn on a server (src/web/server-render.tsx) from the answers the
// page would fetch, then hydrated by the page's own entry (src/web/main.tsx) in a browser
// document: every first screen a visitor can get, drawn whole, and taken over without a
// mismatch, a call, or a change to what was drawn.
import { ALL_CAPABILITIES_ON } from '../domain/capabilities';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TConsent } from '../domain/schemas/consent';
import { aConsent, anImmediatePayment, aPayment } from '../domain/test-support/fixtures';
import { firstScreenParts } from './app/first-screen-parts';
import { pageAnswersElement, type TPageAnswers } from './app/page-answers';
import { renderPageHtml } from './server-render';

const publicConfig = {
  success: true as const,
  productName: 'Oya Money',
  debugTools: false,
  sandbox: true,
  capabilities: ALL_CAPABILITIES_ON,
  terminal: 'reader' as const,
};

const answersFor = (consent: TConsent): TPageAnswers => ({
  publicConfig,
  webBluetooth: false,
  parts: [],
  consent: {
    consentId: consent.consentId,
    clientId: 'cli_1',
    answer: { success: true, consent, embedOrigins: [], returnUrl: null },
  },
});

const NONCE = 'bm9uY2Utb2YtdGVzdA==';

const draw = (answers: TPageAnswers, search = 'clientId=cli_1', path = '/r/cns_1') =>
  renderPageHtml({
    path,
    search,
    // The address the browser has: this document's (the side panel's QR code carries it).
    href: `${window.location.origin}${path}${search ? `?${search}` : ''}`,
    nonce: NONCE,
    answers,
    timeoutMs: 60_000,
  });

/** Each first screen a visitor (no session) can be shown, and a text only that screen has. */
const firstScreens: { name: string; answers: TPageAnswers; search?: string; shows: RegExp }[] = [
  {
    name: 'the auth prompt of a consent that asks for sign-in',
    answers: answersFor(
      aConsent({
        payments: [aPayment({ narration: 'Monthly dues' })],
        dataSharing: { bvnData: true, ninData: false, userImages: false, bankAccounts: false },
        requirements: { requiresAuth: true, requiresAccount: false },
      }),
    ),
    shows: /They would like to:[\s\S]*Authenticate/,
  },
  {
    name: 'Immediate Payment with its methods, for a payment alone',
    answers: answersFor(aConsent({ payments: [anImmediatePayment()] })),
    shows: /Immediate Payment[\s\S]*Pay by Transfer[\s\S]*Pay with Card/,
  },
  {
    name: 'the summary and its sign-in, for a consent that does not ask for sign-in first',
    answers: answersFor(aConsent({ payments: [aPayment({ narration: 'Monthly dues' })] })),
    shows: /They would like to:[\s\S]*Please sign in to grant consent/,
  },
  {
    name: 'Consent Granted',
    answers: answersFor(
      aConsent({
        status: 'granted',
        grantedAt: '2026-01-01T10:00:00.000Z',
        payments: [aPayment()],
      }),
    ),
    shows: /Consent Granted/,
  },
  {
    name: 'public mode, read-only',
    answers: answersFor(
      aConsent({
        payments: [aPayment()],
        requirements: { requiresAuth: true, requiresAccount: false },
      }),
    ),
    search: 'clientId=cli_1&public=true',
    shows: /They would like to:/,
  },
  {
    name: "Consent Not Found with the server's message",
    answers: {
      publicConfig,
      webBluetooth: false,
      parts: [],
      consent: {
        consentId: 'cns_1',
        clientId: 'cli_1',
        failure: {
          status: 404,
          code: 'CONSENT_NOT_FOUND',
          message: 'Consent not found or has expired',
        },
      },
    },
    shows: /Consent not found or has expired/,
  },
  {
    name: 'Missing Client ID, for a page opened without one',
    answers: { publicConfig, webBluetooth: false, parts: [] },
    search: '',
    shows: /Missing Client ID/i,
  },
];

describe('the first screen drawn on a server', () => {
  it.each(firstScreens)(
    'draws $name whole: no Loading screen, no part left to the browser',
    async ({ answers, search, shows }) => {
      const html = await draw(answers, search);
      expect(html).toMatch(shows);
      expect(html).not.toContain('Loading consent...');
      // A part that failed on the server is marked for the browser to draw (<!--$!-->): none here.
      expect(html).not.toContain('<!--$!-->');
    },
  );

  it("gives the merchant's colours as a rule under the answer's nonce, not as a style attribute", async () => {
    const html = await draw(firstScreens[0]!.answers, 'clientId=cli_1&bg=0a0a0a');
    expect(html).toContain(`<style nonce="${NONCE}">.page{`);
    expect(html).toContain('--primary:#FE7048');
    expect(html).toContain('background:#0a0a0a');
    expect(html).not.toMatch(/\sstyle="/);
  });

  it('draws the standalone side panel (shown from 768 px by the stylesheet), not embedded', async () => {
    const consent = aConsent({ payments: [aPayment()] });
    expect(await draw(answersFor(consent))).toContain('class="side-panel"');
    expect(await draw(answersFor(consent), 'clientId=cli_1&embed=true')).not.toContain(
      'class="side-panel"',
    );
  });
});

/** The page as the server sends it, in this document: its drawing and the answers it came from. */
async function placeDrawnPage(read: TPageAnswers, search: string) {
  // The parts the server names, whose code the page loads before it hydrates.
  const answers = { ...read, parts: firstScreenParts(read, search) };
  const html = await draw(answers, search);
  window.history.replaceState(null, '', `/r/cns_1${search ? `?${search}` : ''}`);
  document.head.innerHTML = `<meta property="csp-nonce" nonce="${NONCE}">`;
  document.body.innerHTML = `<div id="root">${html}</div>${pageAnswersElement(answers, NONCE)}`;
}

/**
 * Immediate Payment follows its payment (status and events): calls of its own, answered as a
 * server would that has nothing new, in a browser that has passkeys. Console errors are watched:
 * a mismatch is one.
 */
function stubPageCalls() {
  const fetch = vi.fn(async () => new Response('{}', { status: 503 }));
  vi.stubGlobal('fetch', fetch);
  vi.stubGlobal(
    'EventSource',
    class {
      addEventListener() {}
      close() {}
    },
  );
  // A browser with passkeys, as the server draws for (jsdom has none): without it the page's own
  // check takes the saved accounts' sign-in away after the take-over, sooner or later, and the
  // case passed or failed by that race.
  vi.stubGlobal('PublicKeyCredential', class {});
  return { fetch, errors: vi.spyOn(console, 'error') };
}

describe('the page taking over what the server drew', () => {
  afterEach(async () => {
    // The page of each case goes away with it: nothing of it is left listening to the next.
    (await (await import('./main')).pageRoot).unmount();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    vi.resetModules();
    document.body.innerHTML = '';
  });

  it.each(firstScreens)(
    'hydrates $name with no mismatch, without reading the answers again, and leaves it as drawn',
    async ({ answers: read, search = 'clientId=cli_1' }) => {
      await placeDrawnPage(read, search);
      const main = () => document.querySelector('main');
      const drawn = main()?.outerHTML;
      const { fetch, errors } = stubPageCalls();
      await import('./main');
      // React marks each element it has taken over.
      await vi.waitFor(() =>
        expect(Object.keys(main() ?? {}).some((key) => key.startsWith('__reactFiber$'))).toBe(true),
      );
      // A mismatch is a console error (React then draws that part again in the browser). Both
      // renderers in one process share React's contexts, which React warns about: not a mismatch.
      const reported = errors.mock.calls
        .map((call) => String(call[0]))
        .filter((message) => !message.startsWith('Detected multiple renderers'));
      expect(reported).toEqual([]);
      const asked = fetch.mock.calls.map((call) => String((call as unknown[])[0]));
      expect(asked.filter((url) => /\/api\/(consent|public-config)/.test(url))).toEqual([]);
      expect(main()?.outerHTML).toBe(drawn);
    },
  );

  it('takes over the desktop side panel, its QR code left as drawn until that code comes', async () => {
    // A wide window: the side panel shows, and its code loads with the screen's.
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: true,
      media: query,
      addEventListener() {},
      removeEventListener() {},
    }));
    await placeDrawnPage(firstScreens[1]!.answers, 'clientId=cli_1');
    const qr = () => document.querySelector('.side-panel .qr');
    const drawnQr = qr()?.outerHTML;
    expect(drawnQr).toContain('<svg');
    const { errors } = stubPageCalls();
    await import('./main');
    const takenOver = (element: Element | null | undefined) =>
      Object.keys(element ?? {}).some((key) => key.startsWith('__reactFiber$'));
    await vi.waitFor(() => expect(takenOver(document.querySelector('.side-panel'))).toBe(true));
    // The QR code's own code (qrcode.react) is a chunk of its own: once here, it takes the
    // drawing over as it is, never drawn again from its placeholder.
    await vi.waitFor(() => expect(takenOver(qr()?.querySelector('svg'))).toBe(true));
    expect(document.querySelector('.qr-placeholder')).toBeNull();
    expect(qr()?.outerHTML).toBe(drawnQr);
    const reported = errors.mock.calls
      .map((call) => String(call[0]))
      .filter((message) => !message.startsWith('Detected multiple renderers'));
    expect(reported).toEqual([]);
  });
});
