import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formatNigerianPhone, ZSandboxMessagesResponse } from '../../../domain/schemas/auth';
import type { TRouteContext } from '../../context';
import { isLive } from '../../providers/registry';
import { newNonce, setPageHeaders } from '../../response-headers';
import { normalisePhone } from '../../services/identity/phone-codes';
import { listOutbox, type TOutboxMessage } from '../../services/identity/sms-outbox';
import { escapeHtml, htmlPage } from '../../routes/html-page';
import { jsonAnswers } from '../../routes/responses';

const LIMIT = 50;

/** messages null: no number asked for yet, so none are listed. */
function renderPage(
  productName: string,
  nonce: string,
  phone: string,
  messages: TOutboxMessage[] | null,
): string {
  const rows = (messages ?? [])
    .map(
      (m) => `<li>
  <p class="meta"><strong>To ${escapeHtml(formatNigerianPhone(m.to))}</strong>
  <time datetime="${m.sentAt}">${escapeHtml(new Date(m.sentAt).toLocaleString('en-NG', { timeZone: 'Africa/Lagos' }))}</time></p>
  <p class="body">${escapeHtml(m.body)}</p>
</li>`,
    )
    .join('\n');
  const listing =
    messages === null
      ? '<p>Enter a phone number to see its messages.</p>'
      : messages.length === 0
        ? '<p>No messages to this number yet.</p>'
        : `<ul aria-label="Messages">\n${rows}\n</ul>`;
  return htmlPage({
    title: 'Sandbox SMS messages',
    productName,
    nonce,
    style: `
  form{display:flex;gap:8px;flex-wrap:wrap;margin-bottom:16px}
  label{flex-basis:100%;font-weight:600}
  input{flex:1}
  ul{list-style:none;padding:0;margin:0;display:grid;gap:12px}
  li{background:#fff;border:1px solid #e4e7ec;border-radius:14px;padding:12px 16px}
  .meta{display:flex;justify-content:space-between;gap:8px;flex-wrap:wrap;margin:0 0 4px}
  time{color:#5b6472}
  .body{white-space:pre-wrap;margin:0}`,
    body: `<h1>Sandbox SMS messages</h1>
<p class="note">Nothing is delivered in the sandbox: every text ${escapeHtml(productName)} "sends" to a number appears here, newest first.</p>
<form method="get" action="/sandbox/messages">
  <label for="phone">Phone number</label>
  <input id="phone" name="phone" type="tel" inputmode="tel" autocomplete="off" value="${escapeHtml(phone)}" placeholder="0803 123 4567">
  <button type="submit">Show</button>
</form>
${listing}`,
  });
}

/**
 * The sandbox SMS outbox (docs/identity.md): a page for people and a JSON list for tests, one
 * number at a time, so reading a payer's code takes knowing their number. Registered only while
 * SMS goes to the sandbox; a real provider leaves no outbox to read.
 */
export const sandboxMessageRoutes: FastifyPluginAsync<TRouteContext> = async (
  app,
  { db, config },
) => {
  if (config.smsProvider !== 'sandbox' || isLive(config)) return;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const phoneRequired = 'is required (the outbox lists one number at a time)';
  const oneNumber = z.object({
    phone: z
      .string({
        error: (issue) => (issue.input === undefined ? phoneRequired : 'must be one phone number'),
      })
      .trim()
      .min(1, phoneRequired)
      .max(40),
  });

  r.get(
    '/api/sandbox/messages',
    {
      schema: {
        operationId: 'listSandboxMessages',
        summary: 'List the SMS the sandbox sent to a number',
        querystring: oneNumber,
        response: jsonAnswers({ 200: ZSandboxMessagesResponse }),
      },
    },
    async (request) => {
      const phoneNumber = normalisePhone(request.query.phone);
      const messages = await listOutbox(db, { phoneNumber, limit: LIMIT });
      return { success: true as const, messages };
    },
  );

  r.get(
    '/sandbox/messages',
    { schema: { querystring: z.object({ phone: z.string().trim().max(40).optional() }) } },
    async (request, reply) => {
      const phone = request.query.phone ?? '';
      const messages = phone
        ? await listOutbox(db, { phoneNumber: normalisePhone(phone), limit: LIMIT })
        : null;
      const nonce = newNonce();
      return setPageHeaders(reply, { nonce, frameAncestors: "'none'" }).send(
        renderPage(config.productName, nonce, phone, messages),
      );
    },
  );
};
