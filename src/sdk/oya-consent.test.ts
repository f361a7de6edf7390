// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  consentPageUrl,
  HELLO_TIMEOUT_MS,
  open,
  ORIGIN_CHECK_TIMEOUT_MS,
  type TOpenOptions,
  type TOyaConsentEvent,
} from './oya-consent';
import { SDK_VERSION } from './version';

const PAGE = 'https://pay.example.com';
const location = { consentId: 'cns_1', clientId: 'cli_1', baseUrl: PAGE };

/** Every embed a test opened: destroyed after it, as a page that unmounts would. */
const handles: ReturnType<typeof open>[] = [];

/** The server's answer to the origin check: this page's origin is registered unless a test says. */
const fetchCheck = vi.fn<typeof fetch>();
const answer = (body: unknown, status = 200) =>
  Promise.resolve(new Response(JSON.stringify(body), { status }));

beforeEach(() => {
  fetchCheck.mockReset().mockImplementation(() => answer({ allowed: true }));
  vi.stubGlobal('fetch', fetchCheck);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  for (const handle of handles.splice(0)) handle.destroy();
  document.body.replaceChildren();
  document.body.removeAttribute('style');
});

function opened(options: Partial<TOpenOptions> = {}) {
  const events: TOyaConsentEvent[] = [];
  const handle = open({ ...location, ...options, onEvent: (event) => events.push(event) });
  handles.push(handle);
  const iframes = [...document.querySelectorAll('iframe')];
  const iframe = iframes[iframes.length - 1];
  if (!iframe?.contentWindow) throw new Error('open() made no iframe with a window');
  return { handle, events, iframe, frame: iframe.contentWindow };
}

/** A message as the browser delivers it to the merchant's window. */
const post = (data: unknown, origin: string, source: Window | null) =>
  window.dispatchEvent(new MessageEvent('message', { data, origin, source }));

describe('consentPageUrl', () => {
  it('builds the page address in embed mode from an id, a client id and the base', () => {
    expect(consentPageUrl(location).href).toBe(
      'https://pay.example.com/r/cns_1?clientId=cli_1&embed=true',
    );
  });

  it('turns a given consent URL to embed mode, keeping its other parameters', () => {
    const url = consentPageUrl({ consentUrl: `${PAGE}/r/cns_2?clientId=cli_1&embed=false&bg=fff` });
    expect(url.searchParams.get('embed')).toBe('true');
    expect(url.searchParams.get('bg')).toBe('fff');
  });

  it('refuses a URL the page cannot open: no client id, not http(s), no base', () => {
    expect(() => consentPageUrl({ consentUrl: `${PAGE}/r/cns_2` })).toThrow(/clientId/);
    expect(() => consentPageUrl({ consentUrl: 'javascript:alert(1)//?clientId=x' })).toThrow();
    expect(() => consentPageUrl({ consentId: 'cns_1', clientId: 'cli_1' })).toThrow(/baseUrl/);
  });
});

describe('messages from the consent page', () => {
  it('resizes the iframe to the height the page reports', () => {
    const { iframe, frame, events } = opened();
    post({ type: 'oya-money-height-update', height: 612 }, PAGE, frame);
    expect(iframe.style.height).toBe('612px');
    expect(events).toContainEqual({ type: 'resized', height: 612 });
  });

  it('ignores a message from another origin, even from its own iframe', () => {
    const { iframe, frame, events } = opened();
    post({ type: 'oya-money-height-update', height: 999 }, 'https://evil.example', frame);
    post({ type: 'oya-money-consent-success', consentData: {} }, 'https://evil.example', frame);
    expect(iframe.style.height).toBe('480px');
    expect(events).toEqual([]);
  });

  it('ignores a message from its origin sent by another window than its iframe', () => {
    const { iframe, events } = opened();
    post({ type: 'oya-money-height-update', height: 999 }, PAGE, window);
    post({ type: 'oya-money-height-update', height: 999 }, PAGE, null);
    expect(iframe.style.height).toBe('480px');
    expect(events).toEqual([]);
  });

  it('ignores malformed messages', () => {
    const { iframe, frame, events } = opened();
    for (const data of ['oya-money-height-update', null, { type: 'unknown' }]) {
      post(data, PAGE, frame);
    }
    for (const height of [-1, '300', Number.NaN, Number.POSITIVE_INFINITY]) {
      post({ type: 'oya-money-height-update', height }, PAGE, frame);
    }
    expect(iframe.style.height).toBe('480px');
    expect(events).toEqual([]);
  });

  it('calls onSuccess with the granted consent, and stays open for the details', () => {
    const onSuccess = vi.fn();
    const { handle, frame } = opened({ onSuccess });
    const consent = { consentId: 'cns_1', status: 'granted' };
    post({ type: 'oya-money-consent-success', consentData: consent }, PAGE, frame);
    expect(onSuccess).toHaveBeenCalledWith({ type: 'granted', consentId: 'cns_1', consent });
    expect(handle.isOpen).toBe(true);
  });

  it('closes on Complete & Close, then tells onClose why', () => {
    const onClose = vi.fn();
    const { handle, frame, events } = opened({ onClose });
    post({ type: 'oya-money-consent-completed', consentId: 'cns_1' }, PAGE, frame);
    expect(events).toEqual([
      { type: 'completed', consentId: 'cns_1' },
      { type: 'closed', reason: 'completed' },
    ]);
    expect(onClose).toHaveBeenCalledWith({ type: 'closed', reason: 'completed' });
    expect(handle.isOpen).toBe(false);
    expect(document.querySelector('iframe')).toBeNull();
  });

  it('calls onFailure with the page error on Report Error & Close, and closes', () => {
    const onFailure = vi.fn();
    const { handle, frame } = opened({ onFailure });
    const error = 'Consent not found or has expired';
    post({ type: 'oya-money-consent-failed', consentId: 'cns_1', error }, PAGE, frame);
    expect(onFailure).toHaveBeenCalledWith({
      type: 'failed',
      consentId: 'cns_1',
      code: 'CONSENT_FAILED',
      error,
    });
    expect(handle.isOpen).toBe(false);
  });

  it('tells each step the flow opens, and each payment status with its method', () => {
    const { handle, frame, events } = opened();
    post({ type: 'oya-money-step-change', consentId: 'cns_1', step: 'data_sharing' }, PAGE, frame);
    post(
      {
        type: 'oya-money-payment-status',
        consentId: 'cns_1',
        paymentId: 'pay_1',
        status: 'started',
        method: 'card',
      },
      PAGE,
      frame,
    );
    post(
      {
        type: 'oya-money-payment-status',
        consentId: 'cns_1',
        paymentId: 'pay_1',
        status: 'failed',
      },
      PAGE,
      frame,
    );
    expect(events).toEqual([
      { type: 'step', consentId: 'cns_1', step: 'data_sharing' },
      {
        type: 'payment',
        consentId: 'cns_1',
        paymentId: 'pay_1',
        status: 'started',
        method: 'card',
      },
      { type: 'payment', consentId: 'cns_1', paymentId: 'pay_1', status: 'failed' },
    ]);
    // A failed payment may be tried again: the embed stays open.
    expect(handle.isOpen).toBe(true);
  });

  it('ignores a step or payment message without its fields', () => {
    const { frame, events } = opened();
    post({ type: 'oya-money-step-change', consentId: 'cns_1' }, PAGE, frame);
    post({ type: 'oya-money-payment-status', consentId: 'cns_1', status: 'started' }, PAGE, frame);
    post(
      { type: 'oya-money-payment-status', consentId: 'cns_1', paymentId: 'pay_1', status: 'paid' },
      PAGE,
      frame,
    );
    expect(events).toEqual([]);
  });

  it('calls onDecline on a decline, not onFailure, which the failure after it calls', () => {
    const onDecline = vi.fn();
    const onFailure = vi.fn();
    const { handle, frame, events } = opened({ onDecline, onFailure });
    post({ type: 'oya-money-consent-declined', consentId: 'cns_1' }, PAGE, frame);
    expect(onDecline).toHaveBeenCalledExactlyOnceWith({ type: 'declined', consentId: 'cns_1' });
    expect(onFailure).not.toHaveBeenCalled();
    expect(handle.isOpen).toBe(true);
    const error = 'Consent was rejected by user';
    post({ type: 'oya-money-consent-failed', consentId: 'cns_1', error }, PAGE, frame);
    expect(events.map((event) => event.type)).toEqual(['declined', 'failed', 'closed']);
    expect(onFailure).toHaveBeenCalledOnce();
  });

  it('ignores our step, payment and decline messages from another origin', () => {
    const { frame, events } = opened();
    const evil = 'https://evil.example';
    post({ type: 'oya-money-step-change', consentId: 'cns_1', step: 'form' }, evil, frame);
    post({ type: 'oya-money-consent-declined', consentId: 'cns_1' }, evil, frame);
    post({ type: 'oya-money-consent-declined', consentId: 'cns_1' }, PAGE, window);
    expect(events).toEqual([]);
  });
});

describe('the modal', () => {
  it('is a labelled modal dialog that takes the focus and gives it back', () => {
    const trigger = document.body.appendChild(document.createElement('button'));
    trigger.focus();
    const { handle } = opened();
    const dialog = document.querySelector('[role="dialog"]');
    expect(dialog?.getAttribute('aria-modal')).toBe('true');
    expect(dialog?.getAttribute('aria-label')).toBe('Consent request');
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Close');
    expect(document.body.style.overflow).toBe('hidden');
    handle.close();
    expect(document.activeElement).toBe(trigger);
    expect(document.body.style.overflow).toBe('');
  });

  it('closes on its close button and on Escape, calling onClose once', () => {
    const onClose = vi.fn();
    opened({ onClose });
    document.querySelector<HTMLButtonElement>('button[aria-label="Close"]')?.click();
    expect(onClose).toHaveBeenCalledExactlyOnceWith({ type: 'closed', reason: 'dismissed' });

    const second = opened({ onClose });
    document.activeElement?.dispatchEvent(
      new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }),
    );
    expect(second.handle.isOpen).toBe(false);
    expect(onClose).toHaveBeenCalledTimes(2);
    expect(document.body.children).toHaveLength(0);
  });
});

describe("the page's Escape and its own dialogs", () => {
  it('closes the modal on the Escape pressed inside the page, as its close button does', () => {
    const onClose = vi.fn();
    const { frame, events, handle } = opened({ onClose });
    post({ type: 'oya-money-close-request' }, PAGE, frame);
    expect(handle.isOpen).toBe(false);
    expect(onClose).toHaveBeenCalledExactlyOnceWith({ type: 'closed', reason: 'dismissed' });
    expect(events).toEqual([{ type: 'closed', reason: 'dismissed' }]);
  });

  it('leaves an inline embed open on the Escape inside it, and hears it from its iframe only', () => {
    const container = document.body.appendChild(document.createElement('div'));
    const inline = opened({ container });
    post({ type: 'oya-money-close-request' }, PAGE, inline.frame);
    expect(inline.handle.isOpen).toBe(true);
    const modal = opened();
    post({ type: 'oya-money-close-request' }, 'https://evil.example', modal.frame);
    post({ type: 'oya-money-close-request' }, PAGE, window);
    expect(modal.handle.isOpen).toBe(true);
  });

  it("gives a dialog of the page's own the whole modal, its close button hidden, until it closes", () => {
    const { frame, iframe } = opened();
    const close = document.querySelector<HTMLButtonElement>('button[aria-label="Close"]');
    const dialog = document.querySelector<HTMLElement>('[role="dialog"]');
    post({ type: 'oya-money-height-update', height: 520 }, PAGE, frame);
    post({ type: 'oya-money-page-dialog', open: true }, PAGE, frame);
    expect(close?.parentElement?.style.display).toBe('none');
    expect(dialog?.style.height).toBe('100%');
    expect(iframe.style.height).toBe('100%');
    // The page's height changes meanwhile are kept for when its dialog closes.
    post({ type: 'oya-money-height-update', height: 640 }, PAGE, frame);
    expect(iframe.style.height).toBe('100%');
    post({ type: 'oya-money-page-dialog', open: false }, PAGE, frame);
    expect(close?.parentElement?.style.display).toBe('flex');
    expect(dialog?.style.height).toBe('');
    expect(iframe.style.height).toBe('640px');
  });
});

describe('several embeds, and destroy()', () => {
  it('each embed hears only its own iframe', () => {
    const container = document.body.appendChild(document.createElement('div'));
    const first = opened({ container });
    const second = opened({ container, consentId: 'cns_2' });
    post({ type: 'oya-money-height-update', height: 300 }, PAGE, first.frame);
    post({ type: 'oya-money-height-update', height: 700 }, PAGE, second.frame);
    expect(first.iframe.style.height).toBe('300px');
    expect(second.iframe.style.height).toBe('700px');
    expect(first.events).toEqual([{ type: 'resized', height: 300 }]);
    expect(second.events).toEqual([{ type: 'resized', height: 700 }]);
  });

  it('shows the page inline in the container, without a dialog', async () => {
    const container = document.body.appendChild(document.createElement('div'));
    const { iframe } = opened({ container });
    expect(iframe.parentElement).toBe(container);
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    expect(iframe.title).toBe('Consent request');
    await vi.waitFor(() => expect(iframe.src).toBe(`${PAGE}/r/cns_1?clientId=cli_1&embed=true`));
  });

  it('removes every node and listener it added, and calls nothing after', () => {
    const added = new Set<unknown>();
    const removed = new Set<unknown>();
    for (const target of [window, document]) {
      const add = target.addEventListener.bind(target);
      const remove = target.removeEventListener.bind(target);
      vi.spyOn(target, 'addEventListener').mockImplementation((type, listener, options) => {
        added.add(listener);
        add(type, listener, options);
      });
      vi.spyOn(target, 'removeEventListener').mockImplementation((type, listener, options) => {
        removed.add(listener);
        remove(type, listener, options);
      });
    }
    const before = document.body.innerHTML;
    const onClose = vi.fn();
    const { handle, frame, events } = opened({ onClose });
    expect(added.size).toBe(2); // message on window, keydown on document
    handle.destroy();
    handle.destroy();
    vi.restoreAllMocks();

    expect(removed).toEqual(added);
    expect(document.body.innerHTML).toBe(before);
    expect(document.body.style.overflow).toBe('');
    expect(handle.isOpen).toBe(false);
    post({ type: 'oya-money-consent-completed', consentId: 'cns_1' }, PAGE, frame);
    expect(onClose).not.toHaveBeenCalled();
    expect(events).toEqual([]);
  });
});

describe('the hosted script', () => {
  it('defines window.OyaConsent once, however often it is loaded', async () => {
    await import('./global');
    const first = window.OyaConsent;
    vi.resetModules();
    await import('./global');
    expect(first?.version).toBe(SDK_VERSION);
    expect(window.OyaConsent).toBe(first);
  });
});

describe('the origin check, before the page loads', () => {
  const PAGE_URL = `${PAGE}/r/cns_1?clientId=cli_1&embed=true`;

  it('asks the server whether this page may frame the consent, naming its origin', async () => {
    const { iframe } = opened();
    expect(iframe.getAttribute('src')).toBeNull();
    await vi.waitFor(() => expect(iframe.src).toBe(PAGE_URL));
    const [url, init] = fetchCheck.mock.calls[0] ?? [];
    expect(url).toBeInstanceOf(URL);
    expect((url as URL).href).toBe(
      `${PAGE}/api/consent/cns_1/embed-check?clientId=cli_1&origin=${encodeURIComponent(window.location.origin)}`,
    );
    expect(init?.credentials).toBe('omit');
  });

  it('reports failed ORIGIN_NOT_REGISTERED naming the origin, and closes without loading the page', async () => {
    fetchCheck.mockImplementation(() => answer({ allowed: false }));
    const onFailure = vi.fn();
    const { handle, iframe, events } = opened({ onFailure });
    await vi.waitFor(() => expect(handle.isOpen).toBe(false));
    expect(iframe.getAttribute('src')).toBeNull();
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    expect(events.map((event) => event.type)).toEqual(['failed', 'closed']);
    expect(onFailure).toHaveBeenCalledExactlyOnceWith({
      type: 'failed',
      consentId: 'cns_1',
      code: 'ORIGIN_NOT_REGISTERED',
      error: expect.stringContaining(
        `${window.location.origin} is not a registered origin of client cli_1`,
      ),
    });
    expect(events[1]).toEqual({ type: 'closed', reason: 'failed' });
  });

  it.each([
    ['the network fails', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['the server answers an error', () => answer({ success: false }, 429)],
    ['the answer is not one', () => answer({ ok: true })],
  ])('opens the page when %s, leaving the frame to tell', async (_case, check) => {
    fetchCheck.mockImplementation(check);
    const { iframe, handle, events } = opened();
    await vi.waitFor(() => expect(iframe.src).toBe(PAGE_URL));
    expect(handle.isOpen).toBe(true);
    expect(events).toEqual([]);
  });

  it('opens the page when the check takes longer than its timeout', async () => {
    vi.useFakeTimers();
    fetchCheck.mockImplementation(
      (_url, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new DOMException('', 'AbortError'))),
        ),
    );
    const { iframe } = opened();
    await vi.advanceTimersByTimeAsync(ORIGIN_CHECK_TIMEOUT_MS - 1);
    expect(iframe.getAttribute('src')).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(iframe.src).toBe(PAGE_URL);
  });

  it("does not ask when the page is on the consent page's own origin", async () => {
    const { iframe } = opened({ baseUrl: window.location.origin });
    await vi.waitFor(() => expect(iframe.getAttribute('src')).not.toBeNull());
    expect(fetchCheck).not.toHaveBeenCalled();
  });

  it('stops the check when the embed is destroyed before its answer', async () => {
    let signal: AbortSignal | undefined;
    fetchCheck.mockImplementation((_url, init) => {
      signal = init?.signal ?? undefined;
      return new Promise(() => undefined);
    });
    const { handle } = opened();
    handle.destroy();
    expect(signal?.aborted).toBe(true);
  });
});

describe('a frame that never says hello', () => {
  /** Opens the embed and lets the check answer and the iframe load, on fake timers. */
  async function loadedSilently(options: Partial<TOpenOptions> = {}) {
    vi.useFakeTimers();
    const embed = opened(options);
    await vi.advanceTimersByTimeAsync(0);
    expect(embed.iframe.getAttribute('src')).not.toBeNull();
    embed.iframe.dispatchEvent(new Event('load'));
    // The window of the page the iframe loaded.
    return { ...embed, frame: embed.iframe.contentWindow };
  }

  it(`reports failed FRAME_DID_NOT_LOAD and closes ${HELLO_TIMEOUT_MS / 1000} s after loading`, async () => {
    const { handle, events } = await loadedSilently();
    await vi.advanceTimersByTimeAsync(HELLO_TIMEOUT_MS - 1);
    expect(handle.isOpen).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(handle.isOpen).toBe(false);
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    expect(events).toEqual([
      { type: 'loaded' },
      {
        type: 'failed',
        consentId: 'cns_1',
        code: 'FRAME_DID_NOT_LOAD',
        error: expect.stringContaining('did not load'),
      },
      { type: 'closed', reason: 'failed' },
    ]);
  });

  it('stays open once the page has spoken, whatever it said first', async () => {
    const { handle, frame } = await loadedSilently();
    await vi.advanceTimersByTimeAsync(HELLO_TIMEOUT_MS / 2);
    post({ type: 'oya-money-height-update', height: 500 }, PAGE, frame);
    await vi.advanceTimersByTimeAsync(HELLO_TIMEOUT_MS * 2);
    expect(handle.isOpen).toBe(true);
  });

  it('is not hello when another frame or origin speaks', async () => {
    const { handle, frame } = await loadedSilently();
    post({ type: 'oya-money-height-update', height: 500 }, 'https://evil.example', frame);
    post({ type: 'oya-money-height-update', height: 500 }, PAGE, window);
    await vi.advanceTimersByTimeAsync(HELLO_TIMEOUT_MS);
    expect(handle.isOpen).toBe(false);
  });

  it('reports nothing after the merchant closed the embed', async () => {
    const { handle, events } = await loadedSilently();
    handle.close();
    await vi.advanceTimersByTimeAsync(HELLO_TIMEOUT_MS * 2);
    expect(events.map((event) => event.type)).toEqual(['loaded', 'closed']);
  });
});
