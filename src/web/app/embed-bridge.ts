import { FLUTTER_CHANNEL } from '../../domain/embed-message-names';
import {
  EMBED_MESSAGE,
  carriesConsentData,
  type TEmbedMessage,
  type TMessageFromParent,
} from '../../domain/embed-messages';

/** The origin of the window that embeds this page, when the browser tells it. */
export function parentOrigin(): string | null {
  if (window.parent === window) return null;
  const ancestors = window.location.ancestorOrigins;
  if (ancestors && ancestors.length > 0) return ancestors[0] ?? null;
  try {
    return document.referrer ? new URL(document.referrer).origin : null;
  } catch {
    return null;
  }
}

type TNativeBridge = { postMessage(message: string): unknown };

const isBridge = (value: unknown): value is TNativeBridge =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { postMessage?: unknown }).postMessage === 'function';

/**
 * The bridge of a merchant's app that shows the page in its own webview, the page its top window
 * (docs/sdk.md "In a mobile app"): React Native's `window.ReactNativeWebView`, or the
 * Flutter JavaScript channel FLUTTER_CHANNEL. Only the app can put either in the page's window:
 * the app that holds the webview, which reads the page anyway.
 */
export function nativeBridge(): TNativeBridge | null {
  if (window.parent !== window) return null;
  const host = window as unknown as Record<string, unknown>;
  const bridge = host.ReactNativeWebView ?? host[FLUTTER_CHANNEL];
  return isBridge(bridge) ? bridge : null;
}

/**
 * Posts to the embedding parent, never to '*': a message about the consent goes only to a
 * parent whose origin the merchant registered (`allowedOrigins`); height and failure notices
 * go to the parent's own origin. With no parent, to the app's native bridge, as JSON.
 */
export function postToParent(
  message: TEmbedMessage,
  allowedOrigins: readonly string[] = [],
): boolean {
  const origin = parentOrigin();
  if (!origin) {
    const bridge = nativeBridge();
    if (!bridge) return false;
    bridge.postMessage(JSON.stringify(message));
    return true;
  }
  if (carriesConsentData(message) && !allowedOrigins.includes(origin)) {
    console.warn(
      `Not sending ${message.type}: ${origin} is not a registered origin of this merchant`,
    );
    return false;
  }
  window.parent.postMessage(message, origin);
  return true;
}

/**
 * Listens to the embedding parent (spec §7 Messages): only messages from the parent window
 * itself, from the origin the browser names for it, in the shapes the spec lists. Returns the
 * function that stops listening.
 */
export function listenToParent(onMessage: (message: TMessageFromParent) => void): () => void {
  if (window.parent === window) return () => undefined;
  const listener = (event: MessageEvent) => {
    if (event.source !== window.parent || event.origin !== parentOrigin()) return;
    // Parsed with zod, which the page loads at its first message or call, not with the page.
    void import('../../domain/parent-messages').then(({ parseMessageFromParent }) => {
      const message = parseMessageFromParent(event.data);
      if (message) onMessage(message);
    });
  };
  window.addEventListener('message', listener);
  return () => window.removeEventListener('message', listener);
}

/** Whether a dialog of the page's own is open (the chip terminal, a confirmation…). */
export function pageDialogOpen(): boolean {
  return document.querySelector('dialog[open]') !== null;
}

/**
 * In a frame, the page's Escape is the embed's: it asks the parent to close, as the parent's
 * own close button does. A dialog of the page's own that is open takes Escape first (it closes
 * that dialog alone), and so does a control that used the key. Returns the function that stops.
 */
export function closeParentOnEscape(post: (message: TEmbedMessage) => boolean = postToParent) {
  if (window.parent === window) return () => undefined;
  // The key reaches the document before a dialog handles it: a dialog open now is closing.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented || event.isComposing) return;
    if (pageDialogOpen()) return;
    post({ type: EMBED_MESSAGE.closeRequest });
  };
  document.addEventListener('keydown', onKeyDown);
  return () => document.removeEventListener('keydown', onKeyDown);
}

/**
 * In a frame, tells the parent when a dialog of the page's own opens and closes: while one is
 * open the parent shows the frame whole, without a close of its own, so the payer meets one
 * dialog with one close. Returns the function that stops.
 */
export function reportPageDialogs(post: (message: TEmbedMessage) => boolean = postToParent) {
  if (window.parent === window) return () => undefined;
  let open = false;
  const check = () => {
    const now = pageDialogOpen();
    if (now === open) return;
    open = now;
    post({ type: EMBED_MESSAGE.pageDialog, open });
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['open'],
  });
  return () => {
    observer.disconnect();
    if (open) post({ type: EMBED_MESSAGE.pageDialog, open: false });
  };
}
