// The demo merchant shop: a checkout that loads the embed script from the app's origin at its
// versioned address, pinned by its integrity hash, and opens consents with it in a modal or inline.
// It runs under a strict CSP (no inline styles), as a careful merchant's page would. What the
// script reports is kept in window.shop for the tests (sdk.spec.ts).
//
//   /shop?consent=cns_…[&second=cns_…]
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SDK_VERSION } from '../../src/sdk/version';
import { E2E } from './e2e-env';

/** The script at its version's address, as merchants pin it. */
export const SDK_URL = `${E2E.appOrigin}/sdk/v${SDK_VERSION}/oya-consent.js`;
/** Its major's moving address. */
export const SDK_ALIAS_URL = `${E2E.appOrigin}/sdk/v${SDK_VERSION.split('.')[0]}/oya-consent.js`;

/** The integrity of the script as built (npm run build), as the README publishes it. */
export function sdkIntegrity(): string {
  const built = readFileSync(path.resolve(`dist/web/sdk/v${SDK_VERSION}/oya-consent.js`));
  return `sha384-${createHash('sha384').update(built).digest('base64')}`;
}

const STYLE = `
  body{margin:0;font-family:system-ui,sans-serif;background:#f6f7f9;color:#1d2939}
  header{background:#123b52;color:#fff;padding:12px 20px}
  header p{margin:0;font-weight:700;font-size:1.1rem}
  main{max-width:960px;margin:0 auto;padding:20px;display:grid;gap:20px}
  h1{font-size:1.4rem;margin:0}
  .product{background:#fff;border:1px solid #e4e7ec;border-radius:12px;padding:16px}
  .price{font-size:1.25rem;font-weight:700;margin:4px 0 12px}
  .actions{display:flex;flex-wrap:wrap;gap:12px}
  button{font:inherit;padding:10px 16px;border-radius:8px;border:1px solid #0e7c66;background:#0e7c66;color:#fff;cursor:pointer}
  button.secondary{background:#fff;color:#0e7c66}
  .checkouts{display:grid;gap:16px}
  @media (min-width:768px){.checkouts{grid-template-columns:1fr 1fr}}
  .checkout{background:#fff;border:1px solid #e4e7ec;border-radius:12px;overflow:hidden}
  .checkout:empty{display:none}
  #status{min-height:1.5em;margin:12px 0 0}`;

const SCRIPT = `
  const params = new URLSearchParams(location.search);
  const status = document.getElementById('status');
  window.shop = { events: [], callbacks: [], embeds: [] };
  function start(label, consentId, container) {
    const embed = OyaConsent.open({
      consentId,
      clientId: ${JSON.stringify(E2E.clientId)},
      container,
      onSuccess: (event) => { window.shop.callbacks.push(label + ' onSuccess ' + event.consentId); status.textContent = 'Consent granted, thank you.'; },
      onFailure: (event) => { window.shop.callbacks.push(label + ' onFailure ' + event.error); status.textContent = 'The consent failed: ' + event.error; },
      onDecline: (event) => { window.shop.callbacks.push(label + ' onDecline ' + event.consentId); },
      onClose: (event) => { window.shop.callbacks.push(label + ' onClose ' + event.reason); },
      onEvent: (event) => { window.shop.events.push({ embed: label, type: event.type, height: event.height, reason: event.reason, consentId: event.consentId, step: event.step, paymentId: event.paymentId, status: event.status, method: event.method, code: event.code, error: event.error }); },
    });
    window.shop.embeds.push(embed);
    return embed;
  }
  window.shop.start = start;
  document.getElementById('pay-modal').addEventListener('click', () => start('modal', params.get('consent')));
  document.getElementById('pay-inline').addEventListener('click', () => start('inline', params.get('consent'), document.getElementById('checkout')));
  document.getElementById('pay-both').addEventListener('click', () => {
    start('first', params.get('consent'), document.getElementById('checkout'));
    start('second', params.get('second'), document.getElementById('checkout-2'));
  });`;

export function shopPage() {
  const nonce = randomBytes(16).toString('base64');
  const integrity = sdkIntegrity();
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tola Stores - Checkout</title>
<style nonce="${nonce}">${STYLE}</style>
<script src="${SDK_URL}" integrity="${integrity}" crossorigin="anonymous" nonce="${nonce}"></script>
</head>
<body>
<header><p>Tola Stores</p></header>
<main>
<h1>Checkout</h1>
<section class="product" aria-labelledby="product">
  <h2 id="product">Weekly vegetable box</h2>
  <p class="price">₦7,500.00</p>
  <div class="actions">
    <button type="button" id="pay-modal">Pay with Oya</button>
    <button type="button" id="pay-inline" class="secondary">Pay on this page</button>
    <button type="button" id="pay-both" class="secondary">Pay two orders</button>
  </div>
  <p id="status" role="status"></p>
</section>
<div class="checkouts">
  <section class="checkout" id="checkout" aria-label="Checkout"></section>
  <section class="checkout" id="checkout-2" aria-label="Second checkout"></section>
</div>
</main>
<script nonce="${nonce}">${SCRIPT}</script>
</body></html>`;
  return {
    html,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': [
        "default-src 'none'",
        `script-src 'nonce-${nonce}' ${E2E.appOrigin}`,
        `style-src 'nonce-${nonce}'`,
        `frame-src ${E2E.appOrigin}`,
        // The script asks the app whether this page's origin may frame the consent.
        `connect-src ${E2E.appOrigin}`,
        "base-uri 'none'",
      ].join('; '),
    },
  };
}
