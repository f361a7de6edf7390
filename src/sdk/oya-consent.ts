// The embed script: opens the consent page in an iframe on a merchant's page, in a modal or
// inline, and tells the merchant what the page reports (spec §7 "Messages", and our step, payment
// and decline messages). Importing this module touches neither window nor document, so a
// framework may import it while rendering on a server; only open() does.
import { EMBED_MESSAGE } from '../domain/embed-message-names';
import type { TConsentStep, TFailureCode, TPaymentMethod, TPaymentStatus } from './event-types';

export type { TConsentStep, TFailureCode, TPaymentMethod, TPaymentStatus } from './event-types';
export { SDK_VERSION } from './version';
export { FLUTTER_CHANNEL } from '../domain/embed-message-names';

/** Where the consent is: its page's URL, or its id and the merchant's client id. */
export type TConsentLocation =
  | { consentUrl: string }
  | {
      consentId: string;
      clientId: string;
      /** The consent page's origin, e.g. https://pay.example.com. The hosted script knows it. */
      baseUrl?: string;
    };

/** What the consent page reported, as the merchant receives it through `onEvent`. */
export type TOyaConsentEvent =
  /** The consent page loaded in the iframe. */
  | { type: 'loaded' }
  /** The page asked for a new height; the iframe has it already. */
  | { type: 'resized'; height: number }
  /** The consent flow opened a step: the first one shown, then each the payer moves to. */
  | { type: 'step'; consentId: string; step: TConsentStep }
  /** The immediate payment: an attempt started (a card charged, a transfer account issued, a
   * saved account debited, a chip card read), completed, or failed before the payer's eyes. */
  | {
      type: 'payment';
      consentId: string;
      paymentId: string;
      status: TPaymentStatus;
      method?: TPaymentMethod;
    }
  /** The payer declined the consent; `failed` follows, and the embed closes. */
  | { type: 'declined'; consentId: string }
  /** The payer granted the consent: the page sends the consent as it now stands. */
  | { type: 'granted'; consentId: string; consent: unknown }
  /** The payer pressed Complete & Close after granting: the embed closes. */
  | { type: 'completed'; consentId: string }
  /** The consent cannot go on here: the embed closes. `code` says why (TFailureCode), `error`
   * says it in words: the page's message (consent not found, missing client id…), or which
   * origin to register. */
  | { type: 'failed'; consentId: string | null; code: TFailureCode; error: string }
  /** The embed closed: by the payer (close button, Escape), after `completed` or `failed`, or
   * by the merchant's `close()`. */
  | { type: 'closed'; reason: TCloseReason };

export type TCloseReason = 'dismissed' | 'completed' | 'failed' | 'closed';

export type TOpenOptions = TConsentLocation &
  TOyaConsentCallbacks & {
    /** Shows the page inline in this element; without it, in a modal over the page. */
    container?: HTMLElement;
  };

/** What the merchant hears: `onEvent` every event, typed by its `type`; the others one each. */
export type TOyaConsentCallbacks = {
  onSuccess?: (event: TOyaConsentEventOf<'granted'>) => void;
  onFailure?: (event: TOyaConsentEventOf<'failed'>) => void;
  onDecline?: (event: TOyaConsentEventOf<'declined'>) => void;
  onClose?: (event: TOyaConsentEventOf<'closed'>) => void;
  /** Every event, the four above included. */
  onEvent?: (event: TOyaConsentEvent) => void;
};

export type TOyaConsentHandle = {
  /** Closes the embed and calls onClose, as the payer's close button does. */
  close(): void;
  /** Removes every node and listener the embed added, without calling onClose. */
  destroy(): void;
  readonly isOpen: boolean;
};

/** Every event's name, and the event of each name: `TOyaConsentEventOf<'payment'>`. */
export type TOyaConsentEventType = TOyaConsentEvent['type'];
export type TOyaConsentEventOf<T extends TOyaConsentEventType> = Extract<
  TOyaConsentEvent,
  { type: T }
>;

const IFRAME_ALLOW = 'publickey-credentials-get; publickey-credentials-create; clipboard-write';
/** The iframe's height until the page reports its own (spec §9: at least 200 px). */
const INITIAL_HEIGHT_PX = 480;
/**
 * How long the framed page has to send its first message once the iframe has loaded: past it,
 * the embed reports `failed` (FRAME_DID_NOT_LOAD) and closes. The browser fires the iframe's
 * load event for a page it refused to frame too, and the consent page reports its height as soon
 * as it renders, so a page that says nothing for this long is not coming. Generous: the page's
 * consent screen is a chunk loaded after the load event, which a payer's slow network may take
 * seconds to bring; the unregistered origin, the common case, is told by the origin check.
 */
export const HELLO_TIMEOUT_MS = 10_000;
/** How long the origin check may take before the embed opens without its answer. */
export const ORIGIN_CHECK_TIMEOUT_MS = 3_000;

/** The consent page's URL in embed mode. Throws on a location the page cannot open. */
export function consentPageUrl(location: TConsentLocation): URL {
  let url: URL;
  if ('consentUrl' in location) {
    url = new URL(location.consentUrl);
  } else {
    if (!location.baseUrl) throw new TypeError('OyaConsent: baseUrl is required with consentId');
    url = new URL(`/r/${encodeURIComponent(location.consentId)}`, location.baseUrl);
    url.searchParams.set('clientId', location.clientId);
  }
  if (!/^https?:$/.test(url.protocol)) throw new TypeError('OyaConsent: consent URL not http(s)');
  if (!url.searchParams.get('clientId')) throw new TypeError('OyaConsent: clientId is required');
  url.searchParams.set('embed', 'true');
  return url;
}

/** Modals open at once: the page's scroll is locked while any is, and restored after the last. */
let openModals = 0;
let bodyOverflow = '';

const element = <K extends keyof HTMLElementTagNameMap>(tag: K, css: string) => {
  const node = document.createElement(tag);
  // Through the CSSOM, which a merchant's CSP without 'unsafe-inline' styles still allows.
  node.style.cssText = css;
  return node;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const PAYMENT_STATUSES: readonly unknown[] = ['started', 'completed', 'failed'];

/** Where the server answers whether an origin may frame a consent (docs/sdk.md). */
export function embedCheckUrl(page: URL, origin: string): URL {
  const consentId = decodeURIComponent(page.pathname.split('/').pop() ?? '');
  const url = new URL(`/api/consent/${encodeURIComponent(consentId)}/embed-check`, page.origin);
  url.searchParams.set('clientId', page.searchParams.get('clientId') ?? '');
  url.searchParams.set('origin', origin);
  return url;
}

/**
 * Whether the server says this page's origin may frame the consent: true or false as it
 * answers, null when it gave no answer (network, CSP connect-src, timeout, an error status).
 * The consent page's own origin may always frame it (frame-ancestors 'self'): not asked.
 */
async function originAllowed(page: URL, signal: AbortSignal): Promise<boolean | null> {
  const origin = window.location.origin;
  if (origin === page.origin) return true;
  try {
    const response = await fetch(embedCheckUrl(page, origin), {
      signal,
      credentials: 'omit',
      headers: { accept: 'application/json' },
    });
    if (!response.ok) return null;
    const body: unknown = await response.json();
    return isRecord(body) && typeof body.allowed === 'boolean' ? body.allowed : null;
  } catch {
    return null;
  }
}

/**
 * In a merchant's app that shows the consent page in its own webview (React Native, Flutter;
 * docs/sdk.md "In a mobile app"): the event of one message the page posted to the app's bridge
 * (`event.nativeEvent.data` in React Native's `onMessage`, `message.message` in a Flutter
 * channel), or null for a message that is not the page's. The messages about the frame alone (Escape, the page's dialogs) are none of
 * an app's: null too. `resized` comes as the page measures itself; an app may ignore it.
 */
export function eventFromBridgeMessage(message: unknown): TOyaConsentEvent | null {
  let data: unknown = message;
  if (typeof message === 'string') {
    try {
      data = JSON.parse(message);
    } catch {
      return null;
    }
  }
  if (!isRecord(data)) return null;
  const consentId = typeof data.consentId === 'string' ? data.consentId : null;
  switch (data.type) {
    case EMBED_MESSAGE.heightUpdate:
      return typeof data.height === 'number' && Number.isFinite(data.height) && data.height >= 0
        ? { type: 'resized', height: data.height }
        : null;
    case EMBED_MESSAGE.consentSuccess: {
      const consent = data.consentData;
      const granted =
        isRecord(consent) && typeof consent.consentId === 'string' ? consent.consentId : null;
      return granted ? { type: 'granted', consentId: granted, consent } : null;
    }
    case EMBED_MESSAGE.stepChange:
      return consentId && typeof data.step === 'string'
        ? { type: 'step', consentId, step: data.step as TConsentStep }
        : null;
    case EMBED_MESSAGE.paymentStatus:
      if (!consentId || typeof data.paymentId !== 'string') return null;
      if (!PAYMENT_STATUSES.includes(data.status)) return null;
      return {
        type: 'payment',
        consentId,
        paymentId: data.paymentId,
        status: data.status as TPaymentStatus,
        ...(typeof data.method === 'string' ? { method: data.method as TPaymentMethod } : {}),
      };
    case EMBED_MESSAGE.consentDeclined:
      return consentId ? { type: 'declined', consentId } : null;
    case EMBED_MESSAGE.consentCompleted:
      return consentId ? { type: 'completed', consentId } : null;
    case EMBED_MESSAGE.consentFailed:
      return {
        type: 'failed',
        consentId,
        code: 'CONSENT_FAILED',
        error: typeof data.error === 'string' ? data.error : 'Unknown error',
      };
    default:
      return null;
  }
}

/** Opens the consent page: in `options.container`, or in a modal over the page. */
export function open(options: TOpenOptions): TOyaConsentHandle {
  const url = consentPageUrl(options);
  const pageOrigin = url.origin;
  const modal = !options.container;
  const previousFocus = document.activeElement;
  const consentId = 'consentId' in options ? options.consentId : null;
  const clientId = url.searchParams.get('clientId') ?? '';
  let isOpen = true;
  let loaded = false;
  // Whether the framed page has spoken; until it does, the hello timer runs from its load.
  let heard = false;
  let helloTimer: ReturnType<typeof setTimeout> | undefined;
  const checking = new AbortController();

  const iframe = element(
    'iframe',
    `display:block;width:100%;border:0;height:${INITIAL_HEIGHT_PX}px;color-scheme:normal`,
  );
  iframe.title = 'Consent request';
  iframe.allow = IFRAME_ALLOW;

  let root: HTMLElement = iframe;
  let dialog: HTMLElement | undefined;
  let bar: HTMLElement | undefined;
  let closeButton: HTMLButtonElement | undefined;
  // The height the page last asked for, and whether a dialog of its own is open.
  let pageHeight = INITIAL_HEIGHT_PX;
  let pageDialog = false;
  if (modal) {
    root = element(
      'div',
      'position:fixed;inset:0;z-index:2147483000;display:flex;align-items:center;justify-content:center;padding:16px;box-sizing:border-box;background:rgba(16,24,40,.6)',
    );
    dialog = element(
      'div',
      'position:relative;width:100%;max-width:480px;max-height:100%;overflow:auto;background:#fff;border-radius:12px;box-shadow:0 20px 40px rgba(0,0,0,.25)',
    );
    dialog.setAttribute('role', 'dialog');
    dialog.setAttribute('aria-modal', 'true');
    dialog.setAttribute('aria-label', 'Consent request');
    bar = element('div', 'display:flex;justify-content:flex-end;padding:4px 4px 0');
    closeButton = element(
      'button',
      'width:44px;height:44px;border:0;border-radius:8px;background:transparent;color:#344054;font:28px/1 sans-serif;cursor:pointer',
    );
    closeButton.type = 'button';
    closeButton.setAttribute('aria-label', 'Close');
    closeButton.textContent = '×';
    closeButton.onclick = () => close('dismissed');
    // Focus stays in the dialog: leaving it at either end comes back in at the other.
    const guard = (onFocus: () => void) => {
      const node = document.createElement('div');
      node.tabIndex = 0;
      node.onfocus = onFocus;
      return node;
    };
    bar.append(closeButton);
    dialog.append(
      guard(() => iframe.focus()),
      bar,
      iframe,
      guard(() => (pageDialog ? iframe : closeButton)?.focus()),
    );
    root.append(dialog);
  }

  const emit = (event: TOyaConsentEvent) => {
    if (event.type === 'granted') options.onSuccess?.(event);
    if (event.type === 'failed') options.onFailure?.(event);
    if (event.type === 'declined') options.onDecline?.(event);
    if (event.type === 'closed') options.onClose?.(event);
    options.onEvent?.(event);
  };

  /**
   * While a dialog of the page's own is open (the chip terminal), the modal gives it all its
   * room and hides its close button: the payer sees one dialog, with its one close.
   */
  const showPageDialog = (open: boolean) => {
    pageDialog = open;
    if (!dialog || !bar) return;
    bar.style.display = open ? 'none' : 'flex';
    dialog.style.height = open ? '100%' : '';
    iframe.style.height = open ? '100%' : `${pageHeight}px`;
  };

  const onMessage = (event: MessageEvent) => {
    // Only the page we opened, from its own origin: another frame, or another instance's.
    if (event.origin !== pageOrigin || !iframe.contentWindow) return;
    if (event.source !== iframe.contentWindow) return;
    heard = true;
    clearTimeout(helloTimer);
    const data: unknown = event.data;
    if (!isRecord(data)) return;
    const id = typeof data.consentId === 'string' ? data.consentId : consentId;
    switch (data.type) {
      case EMBED_MESSAGE.heightUpdate: {
        const height = data.height;
        if (typeof height !== 'number' || !Number.isFinite(height) || height < 0) return;
        pageHeight = Math.ceil(height);
        if (!pageDialog) iframe.style.height = `${pageHeight}px`;
        return emit({ type: 'resized', height });
      }
      case EMBED_MESSAGE.consentSuccess: {
        const consent = data.consentData;
        const granted =
          isRecord(consent) && typeof consent.consentId === 'string' ? consent.consentId : id;
        return emit({ type: 'granted', consentId: granted ?? '', consent });
      }
      case EMBED_MESSAGE.stepChange:
        if (typeof data.step !== 'string') return;
        return emit({ type: 'step', consentId: id ?? '', step: data.step as TConsentStep });
      case EMBED_MESSAGE.paymentStatus: {
        const paymentId = data.paymentId;
        const status = data.status;
        const method = data.method;
        if (typeof paymentId !== 'string' || !PAYMENT_STATUSES.includes(status)) return;
        return emit({
          type: 'payment',
          consentId: id ?? '',
          paymentId,
          status: status as TPaymentStatus,
          ...(typeof method === 'string' ? { method: method as TPaymentMethod } : {}),
        });
      }
      case EMBED_MESSAGE.consentDeclined:
        return emit({ type: 'declined', consentId: id ?? '' });
      case EMBED_MESSAGE.consentCompleted:
        emit({ type: 'completed', consentId: id ?? '' });
        return close('completed');
      case EMBED_MESSAGE.closeRequest:
        // Escape in the page closes a modal as Escape on its close button does; an inline
        // embed is part of the merchant's page, which has nothing to close.
        if (modal) close('dismissed');
        return;
      case EMBED_MESSAGE.pageDialog:
        if (modal && typeof data.open === 'boolean') showPageDialog(data.open);
        return;
      case EMBED_MESSAGE.consentFailed:
        // The page's buttons say "Report Error & Close": the embed closes after reporting.
        return fail(
          'CONSENT_FAILED',
          typeof data.error === 'string' ? data.error : 'Unknown error',
          id,
        );
    }
  };
  const onLoad = () => {
    if (loaded) return;
    loaded = true;
    emit({ type: 'loaded' });
    if (!heard) {
      helloTimer = setTimeout(
        () =>
          fail(
            'FRAME_DID_NOT_LOAD',
            `The consent page did not load in its frame. Is ${window.location.origin} registered for client ${clientId}?`,
          ),
        HELLO_TIMEOUT_MS,
      );
    }
  };
  const onKeyDown = (event: KeyboardEvent) => {
    // Only the dialog that holds the focus: another modal's Escape is not ours.
    if (event.key === 'Escape' && dialog?.contains(document.activeElement)) {
      event.preventDefault();
      close('dismissed');
    }
  };

  function teardown(): boolean {
    if (!isOpen) return false;
    isOpen = false;
    clearTimeout(helloTimer);
    checking.abort();
    window.removeEventListener('message', onMessage);
    iframe.removeEventListener('load', onLoad);
    if (modal) {
      document.removeEventListener('keydown', onKeyDown, true);
      openModals -= 1;
      if (openModals === 0) document.body.style.overflow = bodyOverflow;
    }
    const hadFocus = root.contains(document.activeElement);
    root.remove();
    if (modal && hadFocus && previousFocus instanceof HTMLElement && previousFocus.isConnected) {
      previousFocus.focus();
    }
    return true;
  }
  function close(reason: TCloseReason) {
    if (teardown()) emit({ type: 'closed', reason });
  }
  function fail(code: TFailureCode, error: string, id = consentId) {
    emit({ type: 'failed', consentId: id, code, error });
    close('failed');
  }

  window.addEventListener('message', onMessage);
  if (modal) {
    document.addEventListener('keydown', onKeyDown, true);
    if (openModals === 0) bodyOverflow = document.body.style.overflow;
    openModals += 1;
    document.body.style.overflow = 'hidden';
  }
  (options.container ?? document.body).append(root);
  closeButton?.focus();
  // The page loads once the server said this origin may frame it, or gave no answer in time
  // (the hello timer then tells a refused frame); a refused origin is told at once.
  const checkTimer = setTimeout(() => checking.abort(), ORIGIN_CHECK_TIMEOUT_MS);
  void originAllowed(url, checking.signal).then((allowed) => {
    clearTimeout(checkTimer);
    if (!isOpen) return;
    if (allowed === false) {
      return fail(
        'ORIGIN_NOT_REGISTERED',
        `${window.location.origin} is not a registered origin of client ${clientId}: register it (PATCH /api/v1/client/origins) to embed the consent page here.`,
      );
    }
    // Listened to from here: an iframe without a src fires a load of its own (about:blank).
    iframe.addEventListener('load', onLoad);
    iframe.src = url.href;
  });

  return {
    close: () => close('closed'),
    destroy: () => void teardown(),
    get isOpen() {
      return isOpen;
    },
  };
}
