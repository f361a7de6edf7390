// A merchant's page on another origin: embeds the consent page given in ?src= in an iframe,
// as the SDK will, and records every message the frame posts to it in window.received.
import http from 'node:http';
import { E2E } from './e2e-env';

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
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
  })
  .listen(E2E.hostPort, '0.0.0.0');
