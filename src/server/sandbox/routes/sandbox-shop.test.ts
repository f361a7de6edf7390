// The demo shop of the README's quickstart (/sandbox/shop): it loads the embed script under the
// page's nonce and opens the consent it is given; bad ids are refused, and without the sandbox
// it does not exist. The browser path is tests/e2e/quickstart.spec.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPluginApp } from '../../testing/plugin-app';
import { sandboxShopRoutes } from './sandbox-shop';

let ctx: Awaited<ReturnType<typeof startPluginApp>>;
beforeAll(async () => {
  ctx = await startPluginApp(sandboxShopRoutes);
});
afterAll(() => ctx.close());

const get = (url: string) => ctx.app.inject({ method: 'GET', url });
const nonceOf = (csp: unknown) => /'nonce-([^']+)'/.exec(String(csp))?.[1] ?? '';

describe('GET /sandbox/shop', () => {
  it('opens the consent it is given with the embed script, both under the page nonce', async () => {
    const response = await get('/sandbox/shop?consentId=cns_abc&clientId=cli_xyz');
    expect(response.statusCode).toBe(200);
    const nonce = nonceOf(response.headers['content-security-policy']);
    expect(nonce).not.toBe('');
    expect(response.body).toContain(`<script src="/sdk/v1/oya-consent.js" nonce="${nonce}">`);
    expect(response.body).toContain('data-consent-id="cns_abc" data-client-id="cli_xyz"');
    expect(response.body).toContain('>Pay with Oya Money</button>');
    expect(response.body).toContain('role="status" aria-live="polite"');
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('without ids, says how to open it and loads no script', async () => {
    const response = await get('/sandbox/shop');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('/sandbox/shop?consentId=cns_…&amp;clientId=cli_…');
    expect(response.body).not.toContain('oya-consent.js"');
    expect(response.body).not.toContain('<script');
  });

  it('refuses ids that cannot be ours in the catalogue shape, and never echoes them', async () => {
    const response = await get(
      `/sandbox/shop?consentId=${encodeURIComponent('"><img src=x onerror=alert(1)>')}&clientId=cli_x`,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_FAILED',
        message: 'consentId and clientId must be ids we issued',
      },
    });
    expect(response.body).not.toContain('<img');
  });
});

describe('without the sandbox', () => {
  it('does not exist', async () => {
    const real = await startPluginApp(sandboxShopRoutes, { sandbox: null });
    try {
      expect((await real.app.inject({ method: 'GET', url: '/sandbox/shop' })).statusCode).toBe(404);
    } finally {
      await real.close();
    }
  });
});
