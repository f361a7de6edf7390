import { createContext, use, useSyncExternalStore } from 'react';

/**
 * What a screen reads of the document it is drawn into: the CSP nonce its inline styles carry
 * (the page's CSP allows no style attributes, src/server/response-headers.ts), the page's
 * address, and whether the browser offers Web Bluetooth. In the browser they come from the
 * document itself; the server that draws the first screen (src/web/server-render.tsx) gives the
 * request's, and the page hydrates what it drew with the same (src/web/main.tsx).
 */
export type TPageDocument = {
  nonce: string | undefined;
  href: string;
  /** On a server, a guess from the browser's User-Agent (src/server/routes/pages.ts). */
  webBluetooth: boolean;
};

export const PageDocumentContext = createContext<TPageDocument | null>(null);

/** The nonce as the server wrote it in the page (src/server/routes/pages.ts). */
export function pageNonce(): string | undefined {
  const meta = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]');
  // Browsers hide the attribute once the page is parsed and keep the value on the property.
  return meta?.nonce || meta?.getAttribute('nonce') || undefined;
}

const browserWebBluetooth = () => 'bluetooth' in navigator;

export function usePageDocument(): TPageDocument {
  return (
    use(PageDocumentContext) ?? {
      nonce: pageNonce(),
      href: window.location.href,
      webBluetooth: browserWebBluetooth(),
    }
  );
}

const unchanging = () => () => undefined;

/**
 * Whether the browser offers Web Bluetooth (a chip-card reader may connect). A server guesses;
 * the page hydrates with the guess, then reads the browser itself.
 */
export function useWebBluetooth(): boolean {
  const { webBluetooth } = usePageDocument();
  return useSyncExternalStore(unchanging, browserWebBluetooth, () => webBluetooth);
}
