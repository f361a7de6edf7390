// A merchant's pages on another origin. `/`: embeds the consent page given in ?src= in an iframe
// by hand and records every message the frame posts to it in window.received. `/shop`: a shop
// that opens consents with the embed script (shop-page.ts).
import http from 'node:http';
import { E2E } from './e2e-env';
import { shopPage } from './shop-page';

const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Merchant checkout</title></head>
<body style="margin:0;font-family:sans-serif;background:#eef2f6">
<main>
<h1 style="font-size:18px;padding:12px">Merchant checkout</h1>
<iframe id="consent" title="Consent" style="width:100%;border:0;height:200px"
  allow="publickey-credentials-get; publickey-credentials-create; clipboard-write"></iframe>
<script>
  window.received = [];
  window.addEventListener('message', (event) => {
    window.received.push({ origin: event.origin, data: event.data });
    if (event.data && event.data.type === 'oya-money-height-update') {
      document.getElementById('consent').style.height = event.data.height + 'px';
    }
  });
  document.getElementById('consent').src = new URLSearchParams(location.search).get('src');
</script>
</main>
</body></html>`;

http
  .createServer((req, res) => {
    if (req.url === '/health') return res.writeHead(200).end('ok');
    if (req.url?.startsWith('/shop')) {
      const shop = shopPage();
      return res.writeHead(200, shop.headers).end(shop.html);
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
  })
  .listen(E2E.hostPort, '0.0.0.0');
