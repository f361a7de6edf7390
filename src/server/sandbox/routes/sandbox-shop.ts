import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { ZIdentifier } from '../../../domain/schemas/fields';
import type { TRouteContext } from '../../context';
import { newNonce, setPageHeaders } from '../../response-headers';
import { AppError } from '../../app-error';
import { escapeHtml, htmlPage } from '../../routes/html-page';

/*
 * A demo merchant's checkout for the README's quickstart (sandbox mode only): it loads the embed
 * script from its versioned address and opens the consent it is given in a modal, as a
 * merchant's own page would. The consent's client must list this server's origin
 * (`--origin http://localhost:3000`), or the browser refuses to frame the consent page.
 *
 *   /sandbox/shop?consentId=cns_…&clientId=cli_…
 */

const ZShopQuery = z.object({
  consentId: z.optional(ZIdentifier),
  clientId: z.optional(ZIdentifier),
});

const SHOP_STYLE = `
  .product{background:#fff;border:1px solid #e4e7ec;border-radius:14px;padding:16px;margin:16px 0}
  .product h2{font-size:1.1rem;margin:0 0 4px}
  .status{min-height:1.5em;margin:12px 0 0;font-weight:600}
  code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.92em;overflow-wrap:anywhere}`;

/** Opens the consent with the embed script and says how it ended. */
const SHOP_SCRIPT = `(() => {
  const button = document.getElementById('pay');
  const status = document.getElementById('status');
  const say = (text) => { status.textContent = text; };
  button.addEventListener('click', () => {
    say('Waiting for the payer...');
    window.OyaConsent.open({
      consentId: button.dataset.consentId,
      clientId: button.dataset.clientId,
      onSuccess: (event) => say('Consent granted: ' + event.consentId),
      onFailure: (event) => say('Consent failed: ' + (event.error || 'unknown error') + ' (' + event.code + ')'),
      onClose: (event) => { if (event.reason === 'dismissed') say('Checkout closed before the consent was granted.'); },
    });
  });
})();`;

export const sandboxShopRoutes: FastifyPluginAsync<TRouteContext> = async (
  app,
  { sandbox, config },
) => {
  if (!sandbox) return;
  app.get('/sandbox/shop', async (request, reply) => {
    const query = ZShopQuery.safeParse(request.query);
    if (!query.success) {
      throw new AppError('VALIDATION_FAILED', 'consentId and clientId must be ids we issued');
    }
    const { consentId, clientId } = query.data;
    const nonce = newNonce();
    const ready = Boolean(consentId && clientId);
    const body = ready
      ? `<h1>Demo shop</h1>
<p class="note">A merchant's checkout, embedding the consent with the script at <code>/sdk/v1/oya-consent.js</code>.</p>
<section class="product" aria-labelledby="order">
<h2 id="order">Your order</h2>
<p>Consent <code>${escapeHtml(consentId ?? '')}</code></p>
<button id="pay" type="button" data-consent-id="${escapeHtml(consentId ?? '')}" data-client-id="${escapeHtml(clientId ?? '')}">Pay with ${escapeHtml(config.productName)}</button>
<p id="status" class="status" role="status" aria-live="polite"></p>
</section>`
      : `<h1>Demo shop</h1>
<p>Open this page with the consent to check out: <code>/sandbox/shop?consentId=cns_…&amp;clientId=cli_…</code>, the ids that <code>POST /api/v1/consents</code> answered (README, "Quickstart").</p>`;
    const page = htmlPage({
      title: 'Demo shop',
      productName: config.productName,
      nonce,
      body: ready
        ? `${body}\n<script src="/sdk/v1/oya-consent.js" nonce="${nonce}"></script>`
        : body,
      style: SHOP_STYLE,
      ...(ready ? { script: SHOP_SCRIPT } : {}),
    });
    return setPageHeaders(reply, {
      nonce,
      frameAncestors: "'none'",
    }).send(page);
  });
};
