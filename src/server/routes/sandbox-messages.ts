import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formatNigerianPhone } from '../../domain/schemas/auth';
import type { TConfig } from '../config';
import type { TDb } from '../db/database';
import { normalisePhone } from '../services/phone-codes';
import { listOutbox, type TOutboxMessage } from '../services/sms-outbox';

const LIMIT = 50;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function renderPage(productName: string, messages: TOutboxMessage[], phone: string): string {
  const rows = messages
    .map(
      (m) => `<li>
  <p class="meta"><strong>To ${escapeHtml(formatNigerianPhone(m.to))}</strong>
  <time datetime="${m.sentAt}">${escapeHtml(new Date(m.sentAt).toLocaleString('en-NG', { timeZone: 'Africa/Lagos' }))}</time></p>
  <p class="body">${escapeHtml(m.body)}</p>
</li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en-NG"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox SMS messages - ${escapeHtml(productName)}</title>
<style>
  body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;background:#f5f6f8;color:#111827;line-height:1.5}
  main{max-width:640px;margin:0 auto;padding:24px 16px}
  h1{font-size:1.4rem;margin:0 0 4px}
  .note{color:#5b6472;margin:0 0 16px}
  form{display:flex;gap:8px;flex-wrap:wrap;margin-bottom:16px}
  label{flex-basis:100%;font-weight:600}
  input{flex:1;min-width:0;padding:10px;border:1px solid #c5cad3;border-radius:10px;font:inherit}
  button,a.button{padding:10px 16px;border-radius:10px;border:0;background:#1f2937;color:#fff;font:inherit;text-decoration:none}
  ul{list-style:none;padding:0;margin:0;display:grid;gap:12px}
  li{background:#fff;border:1px solid #e4e7ec;border-radius:14px;padding:12px 16px}
  .meta{display:flex;justify-content:space-between;gap:8px;flex-wrap:wrap;margin:0 0 4px}
  time{color:#5b6472}
  .body{white-space:pre-wrap;margin:0}
  :focus-visible{outline:3px solid #fe7048;outline-offset:2px}
</style></head>
<body><main>
<h1>Sandbox SMS messages</h1>
<p class="note">Nothing is delivered in the sandbox: every text ${escapeHtml(productName)} "sends" appears here, newest first.</p>
<form method="get" action="/sandbox/messages">
  <label for="phone">Phone number</label>
  <input id="phone" name="phone" type="tel" inputmode="tel" autocomplete="off" value="${escapeHtml(phone)}" placeholder="0803 123 4567">
  <button type="submit">Show</button>
  <a class="button" href="/sandbox/messages">All</a>
</form>
${messages.length > 0 ? `<ul aria-label="Messages">\n${rows}\n</ul>` : '<p>No messages yet.</p>'}
</main></body></html>`;
}

/**
 * The sandbox SMS outbox (docs/identity.md): a page for people and a JSON list for tests.
 * Registered only while SMS goes to the sandbox; a real provider leaves no outbox to read.
 */
export const sandboxMessageRoutes: FastifyPluginAsync<{ db: TDb; config: TConfig }> = async (
  app,
  { db, config },
) => {
  if (config.smsProvider !== 'sandbox') return;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const query = z.object({ phone: z.string().max(40).optional() });

  r.get('/api/sandbox/messages', { schema: { querystring: query } }, async (request, reply) => {
    const phone = request.query.phone?.trim();
    const messages = await listOutbox(db, {
      phoneNumber: phone ? normalisePhone(phone) : undefined,
      limit: LIMIT,
    });
    reply.header('Cache-Control', 'no-store');
    return { success: true as const, messages };
  });

  r.get('/sandbox/messages', { schema: { querystring: query } }, async (request, reply) => {
    const phone = request.query.phone?.trim() ?? '';
    const normalised = phone ? normalisePhone(phone) : undefined;
    const messages = await listOutbox(db, { phoneNumber: normalised, limit: LIMIT });
    return reply
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header(
        'Content-Security-Policy',
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
      )
      .header('X-Content-Type-Options', 'nosniff')
      .send(renderPage(config.productName, messages, phone));
  });
};
