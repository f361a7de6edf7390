// The sandbox SMS outbox lists one number at a time: reading a payer's code takes knowing their
// number, and the whole outbox is never on show.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatNigerianPhone, toNigerianE164 } from '../../../domain/schemas/auth';
import { sendCode, testPhone } from '../../testing/identity';
import { startTestApp } from '../../testing/test-app';

let ctx: Awaited<ReturnType<typeof startTestApp>>;
const first = testPhone();
const second = testPhone();

beforeAll(async () => {
  ctx = await startTestApp();
  for (const phone of [first, second])
    expect((await sendCode(ctx.app, phone)).statusCode).toBe(200);
});
afterAll(() => ctx.close());

const get = (url: string) => ctx.app.inject({ method: 'GET', url });
const codesIn = (text: string) => text.match(/your code is \d{6}/g) ?? [];

describe('GET /api/sandbox/messages', () => {
  it('answers 400 naming phone when no number is given, or a blank one', async () => {
    for (const url of ['/api/sandbox/messages', '/api/sandbox/messages?phone=%20']) {
      const response = await get(url);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        success: false,
        error: {
          code: 'VALIDATION_FAILED',
          message: 'phone: is required (the outbox lists one number at a time)',
        },
      });
    }
  });

  it('answers 400 naming phone for a repeated phone parameter', async () => {
    const response = await get(`/api/sandbox/messages?phone=${first}&phone=${second}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      success: false,
      error: { code: 'VALIDATION_FAILED', message: 'phone: must be one phone number' },
    });
  });

  it("lists only the given number's messages", async () => {
    const response = await get(`/api/sandbox/messages?phone=${first}`);
    expect(response.statusCode).toBe(200);
    const { messages } = response.json<{ messages: Array<{ to: string; body: string }> }>();
    expect(messages).toHaveLength(1);
    expect(messages[0]?.to).toBe(toNigerianE164(first));
  });
});

describe('GET /sandbox/messages', () => {
  it('shows the form and no message until a number is given', async () => {
    const page = await get('/sandbox/messages');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<form method="get" action="/sandbox/messages">');
    expect(page.body).toContain('Enter a phone number to see its messages.');
    expect(codesIn(page.body)).toEqual([]);
    expect(page.body).not.toContain('href="/sandbox/messages"');
  });

  it("shows only the given number's messages", async () => {
    const page = await get(`/sandbox/messages?phone=${second}`);
    expect(page.statusCode).toBe(200);
    expect(codesIn(page.body)).toHaveLength(1);
    expect(page.body).toContain(`To ${formatNigerianPhone(toNigerianE164(second) ?? '')}`);
  });

  it('styles itself only with the nonce of its own CSP', async () => {
    const page = await get('/sandbox/messages');
    const csp = String(page.headers['content-security-policy']);
    const nonce = /style-src 'self' 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(page.body).toContain(`<style nonce="${nonce}">`);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
  });
});
