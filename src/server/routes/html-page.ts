/*
 * The server's own small HTML pages (the sandbox's: /sandbox, its 3-D Secure challenge, the SMS
 * outbox): one shell, one escaping rule. Every page answer gets a fresh CSP nonce
 * (response-headers.ts setPageHeaders); its one <style> and its optional <script> carry it.
 */

/** Text or an attribute value as markup (HTML and SVG): the five significant characters as
 * numeric references. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Styles every page shares: mobile first, system fonts, a focus ring that reads on the page
 * (#c2410c: 4.8:1 on the page's grey, WCAG 2.2 1.4.11 asks 3:1). */
const BASE_STYLE = `
  *,*::before,*::after{box-sizing:border-box}
  body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;background:#f5f6f8;color:#111827;line-height:1.5}
  main{max-width:640px;margin:0 auto;padding:24px 16px}
  h1{font-size:1.4rem;margin:0 0 4px}
  .note{color:#5b6472;margin:0 0 16px}
  input{min-width:0;padding:10px;border:1px solid #8a93a3;border-radius:10px;font:inherit;background:#fff;color:inherit}
  button{padding:10px 16px;border-radius:10px;border:0;background:#1f2937;color:#fff;font:inherit;cursor:pointer}
  button:disabled{opacity:.55;cursor:not-allowed}
  a{color:#1d4ed8}
  :focus-visible{outline:3px solid #c2410c;outline-offset:2px}`;

export type THtmlPage = {
  /** The page's own title; the product name follows it in the tab. */
  title: string;
  productName: string;
  nonce: string;
  /** Markup inside <main>, already escaped. */
  body: string;
  /** Styles of this page, after the shared ones. */
  style?: string;
  /** A small script of this page; it runs with the answer's nonce, after the body. */
  script?: string;
};

export function htmlPage({ title, productName, nonce, body, style = '', script }: THtmlPage) {
  const scriptTag = script ? `\n<script nonce="${nonce}">${script}</script>` : '';
  return `<!doctype html>
<html lang="en-NG"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/favicon.svg">
<title>${escapeHtml(title)} - ${escapeHtml(productName)}</title>
<style nonce="${nonce}">${BASE_STYLE}${style}
</style></head>
<body><main>
${body}
</main>${scriptTag}</body></html>`;
}
