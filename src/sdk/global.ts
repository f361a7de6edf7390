// The hosted script (/sdk/v<version>/oya-consent.js, and the package's oya-consent.global.js): defines window.OyaConsent once, so a page that
// loads the script twice keeps the first and its open embeds. Unlike oya-consent.ts, this runs
// in a browser only, as a classic script.
import { open, type TOpenOptions, type TOyaConsentHandle } from './oya-consent';
import { SDK_VERSION } from './version';

export type TOyaConsentGlobal = {
  readonly version: string;
  open(options: TOpenOptions): TOyaConsentHandle;
};

declare global {
  interface Window {
    OyaConsent?: TOyaConsentGlobal;
  }
}

if (!window.OyaConsent) {
  // The consent pages live where this script came from, unless an open() says otherwise.
  const script = document.currentScript;
  const scriptOrigin =
    script instanceof HTMLScriptElement && script.src ? new URL(script.src).origin : undefined;
  Object.defineProperty(window, 'OyaConsent', {
    value: Object.freeze({
      version: SDK_VERSION,
      open: (options: TOpenOptions) =>
        open(
          'consentId' in options
            ? { ...options, baseUrl: options.baseUrl ?? scriptOrigin }
            : options,
        ),
    }),
    enumerable: true,
  });
}
