import { EMBED_MESSAGE } from '../../domain/embed-message-names';

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
 * spec §7 consent-failed, told to the parent's own origin (it says nothing about the consent or
 * the payer; embed-bridge.ts's postToParent sends the rest), by a page whose code did not come.
 */
export function reportFailureToParent(consentId: string, error: string): void {
  const origin = parentOrigin();
  if (origin)
    window.parent.postMessage({ type: EMBED_MESSAGE.consentFailed, consentId, error }, origin);
}
