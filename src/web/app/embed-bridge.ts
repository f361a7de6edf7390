import {
  carriesConsentData,
  parseMessageFromParent,
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

/**
 * Posts to the embedding parent, never to '*': a message about the consent goes only to a
 * parent whose origin the merchant registered (`allowedOrigins`); height and failure notices
 * go to the parent's own origin.
 */
export function postToParent(
  message: TEmbedMessage,
  allowedOrigins: readonly string[] = [],
): boolean {
  const origin = parentOrigin();
  if (!origin) return false;
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
    const message = parseMessageFromParent(event.data);
    if (message) onMessage(message);
  };
  window.addEventListener('message', listener);
  return () => window.removeEventListener('message', listener);
}
