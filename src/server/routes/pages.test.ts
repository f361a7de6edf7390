// The built page as served: who may frame it, its CSP nonce, and what of the build is not public.
// Needs `npm run build`.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SDK_VERSION } from '../../sdk/version';
import { buildApp } from '../app';
import type { TDatabase } from '../db/database';
import { createTestClient, openTestDatabase, testConfig } from '../testing/test-app';
import type { TPageAnswers } from '../../web/app/page-answers';
import { SDK_ALIAS_CACHE } from './pages';

const webDir = path.resolve('dist/web');
const assets = readdirSync(path.join(webDir, 'assets'));

let app: FastifyInstance;
let database: TDatabase;
let owner: Awaited<ReturnType<typeof createTestClient>>;
let other: Awaited<ReturnType<typeof createTestClient>>;
let consentId: string;

beforeAll(async () => {
  database = await openTestDatabase();
  app = await buildApp({ config: testConfig(), database, webDir, logger: false });
  await app.ready();
  owner = await createTestClient(database, {
    name: 'Tola Stores',
    origins: ['https://shop.tola.example', 'https://staging.tola.example'],
  });
  other = await createTestClient(database, {
    name: 'Other Merchant',
    origins: ['https://other.example'],
  });
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/consents',
    headers: { authorization: owner.authorization },
    payload: { payments: [{ type: 'immediate', amount: 250_000, narration: 'Order 17' }] },
  });
  expect(created.statusCode).toBe(201);
  consentId = created.json<{ consentId: string }>().consentId;
});
afterAll(async () => {
  await app.close();
  await database.close();
});

const get = (url: string) => app.inject({ method: 'GET', url });
const frameAncestors = async (url: string) => {
  const response = await get(url);
  expect(response.statusCode).toBe(200);
  return /frame-ancestors ([^;]+)/.exec(String(response.headers['content-security-policy']))?.[1];
};

describe('frame-ancestors of /r/:consentId', () => {
  it("lists the origins of the client that owns the consent, opened with that client's id", async () => {
    expect(await frameAncestors(`/r/${consentId}?clientId=${owner.clientId}`)).toBe(
      "'self' https://shop.tola.example https://staging.tola.example",
    );
  });

  it("lists no origin of another client opened with that client's id", async () => {
    expect(await frameAncestors(`/r/${consentId}?clientId=${other.clientId}`)).toBe("'self'");
  });

  it("lets the named client frame an unknown consent's Consent Not Found (spec §2)", async () => {
    expect(await frameAncestors(`/r/cns_unknown?clientId=${other.clientId}`)).toBe(
      "'self' https://other.example",
    );
  });

  it('lists no origin for an unknown client', async () => {
    expect(await frameAncestors(`/r/${consentId}?clientId=cli_unknown`)).toBe("'self'");
    expect(await frameAncestors(`/r/cns_unknown?clientId=cli_unknown`)).toBe("'self'");
  });

  it('answers a repeated clientId without a 500, and lists no origin', async () => {
    for (const query of [
      `clientId=${owner.clientId}&clientId=${other.clientId}`,
      `clientId=${owner.clientId}&clientId=${owner.clientId}`,
    ]) {
      expect(await frameAncestors(`/r/${consentId}?${query}`)).toBe("'self'");
    }
  });

  it('lists no origin for ids no row can have (a NUL byte), without a 500', async () => {
    expect(await frameAncestors(`/r/%00?clientId=${owner.clientId}`)).toBe("'self'");
    expect(await frameAncestors(`/r/${consentId}?clientId=${owner.clientId}%00`)).toBe("'self'");
  });

  it('may be framed by anyone without a clientId: the page shows only its error', async () => {
    expect(await frameAncestors(`/r/${consentId}`)).toBe('*');
    expect(await frameAncestors(`/r/${consentId}?clientId=%20`)).toBe('*');
  });
});

describe('page CSP', () => {
  const pages = ['/', '/login', `/r/cns_any?clientId=cli_any`, '/sandbox/grant-signing'];

  it('gives every page answer its own nonce, carried by each script and module preload', async () => {
    const nonces: string[] = [];
    for (const url of [...pages, ...pages]) {
      const response = await get(url);
      const csp = String(response.headers['content-security-policy']);
      const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)'(;|$)/.exec(csp)?.[1] ?? '';
      expect(nonce).toHaveLength(24);
      const scripts = response.body.match(/<script\b[^>]*>/g) ?? [];
      const preloads = response.body.match(/<link\b[^>]*modulepreload[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of [...scripts, ...preloads]) expect(tag).toContain(`nonce="${nonce}"`);
      // Vite's preload helper reads the nonce from this tag for the preloads it adds later.
      expect(response.body).toContain(`<meta property="csp-nonce" nonce="${nonce}">`);
      nonces.push(nonce);
    }
    expect(new Set(nonces).size).toBe(nonces.length);
  });

  it('allows no eval, no inline code, no plugins, no <base> and no foreign form target', async () => {
    for (const url of [...pages, '/sandbox/messages']) {
      const csp = String((await get(url)).headers['content-security-policy']);
      expect(csp).not.toMatch(/unsafe-eval|unsafe-inline/);
      expect(csp).not.toMatch(/script-src[^;]*'self'/);
      for (const directive of ["object-src 'none'", "base-uri 'none'", "form-action 'self'"]) {
        expect(csp.split('; ')).toContain(directive);
      }
    }
  });
});

describe('files of the build', () => {
  it('does not serve /index.html raw, without its CSP', async () => {
    const response = await get('/index.html');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      success: false,
      error: { code: 'NOT_FOUND', message: 'Not found' },
    });
  });

  it('keeps source maps off the web and out of the bundles', async () => {
    const maps = assets.filter((file) => file.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(0);
    for (const map of maps) {
      const response = await get(`/assets/${map}`);
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('NOT_FOUND');
    }
    for (const script of assets.filter((file) => file.endsWith('.js'))) {
      expect(readFileSync(path.join(webDir, 'assets', script), 'utf8')).not.toContain(
        'sourceMappingURL',
      );
    }
  });

  it('lets browsers keep hashed assets for a year', async () => {
    const script = assets.find((file) => file.endsWith('.js'));
    const response = await get(`/assets/${script}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('the consent page drawn on the server', () => {
  const drawnRoot = (body: string) =>
    /<div id="root">([\s\S]*?)<\/div><script type="application\/json"/.exec(body)?.[1] ?? '';
  const answersIn = (body: string) => {
    const json = /<script type="application\/json" id="page-answers"[^>]*>([^<]*)<\/script>/.exec(
      body,
    )?.[1];
    return json === undefined ? null : (JSON.parse(json) as TPageAnswers);
  };
  const preloads = (body: string) => body.match(/<link\b[^>]*rel="preload"[^>]*>/g) ?? [];
  const preloadOf = (href: string) => `<link rel="preload" as="fetch" crossorigin href="${href}">`;
  const modulePreloadTags = (body: string) =>
    body.match(/<link\b[^>]*rel="modulepreload"[^>]*>/g) ?? [];
  const modulePreloads = (body: string) =>
    modulePreloadTags(body).map((tag) => ({
      file: /href="\/([^"]+)"/.exec(tag)?.[1],
      low: tag.includes('fetchpriority="low"'),
    }));
  const chunks = JSON.parse(
    readFileSync(path.join(webDir, '.vite/first-screen-chunks.json'), 'utf8'),
  ) as Record<string, string[]>;
  const built = readFileSync(path.join(webDir, 'index.html'), 'utf8');

  it('carries the first screen and the answer the page would read, so the page asks for neither', async () => {
    const response = await get(`/r/${consentId}?clientId=${owner.clientId}`);
    const root = drawnRoot(response.body);
    expect(root).toContain('Immediate Payment');
    expect(root).toContain('Pay by Transfer');
    expect(root).not.toContain('Loading consent...');
    const answers = answersIn(response.body);
    const read = await get(`/api/consent/${consentId}?clientId=${owner.clientId}`);
    expect(answers?.consent).toEqual({ consentId, clientId: owner.clientId, answer: read.json() });
    expect(answers?.publicConfig).toEqual((await get('/api/public-config')).json());
    expect(answers?.parts).toEqual(['immediate-payment', 'side-panel']);
    expect(preloads(response.body)).toEqual([]);
  });

  it('asks for its scripts once the screen is painted: the entry, and the code of the screen drawn beside it', async () => {
    const response = await get(`/r/${consentId}?clientId=${owner.clientId}`);
    const nonce = /<meta property="csp-nonce" nonce="([^"]+)">/.exec(response.body)?.[1];
    // No script or module preload the browser would fetch while it paints.
    expect(response.body).not.toMatch(/<script[^>]*\bsrc=/);
    expect(modulePreloadTags(response.body)).toEqual([]);
    // One script of the page's own, under the answer's nonce, loads them after the first paint.
    // (A nonce is base64: its '+' and '/' are no regular expression's.)
    const opening = `<script nonce="${nonce}" type="module">`;
    const from = response.body.indexOf(opening);
    const loader =
      from === -1
        ? undefined
        : response.body.slice(from + opening.length, response.body.indexOf('</script>', from));
    expect(loader).toContain('requestAnimationFrame');
    const entry = /<script type="module" crossorigin src="([^"]+)">/.exec(built)?.[1];
    expect(loader).toContain(`import(${JSON.stringify(entry)})`);
    const named = JSON.parse(
      /for\(const href of (\[[^\]]*\])\)/.exec(loader ?? '')?.[1] ?? '[]',
    ) as string[];
    const drawn = [...(chunks.route ?? []), ...(chunks['immediate-payment'] ?? [])];
    for (const file of drawn) expect(named).toContain(`/${file}`);
    // Each once: the screen's list names the chunks it shares with the route's.
    expect(named).toEqual([...new Set(named)]);
    // Not the auth prompt's, which this screen does not hold, nor the side panel's (the page
    // loads it where a wide window shows it).
    const others = [...(chunks['auth-prompt'] ?? []), ...(chunks['side-panel'] ?? [])];
    for (const file of others.filter((f) => !drawn.includes(f) && !built.includes(f))) {
      expect(named).not.toContain(`/${file}`);
    }
  });

  it('reads the clientId as the page does: trimmed', async () => {
    const response = await get(`/r/${consentId}?clientId=%20${owner.clientId}%20`);
    expect(answersIn(response.body)?.consent).toMatchObject({ clientId: owner.clientId });
    expect(drawnRoot(response.body)).toContain('Immediate Payment');
  });

  it("draws the refusal the page would show: an unknown consent, another client's", async () => {
    const unknown = await get(`/r/cns_unknown?clientId=${owner.clientId}`);
    expect(drawnRoot(unknown.body)).toContain('Consent not found or has expired');
    expect(answersIn(unknown.body)?.consent).toMatchObject({
      failure: { status: 404, code: 'CONSENT_NOT_FOUND' },
    });
    const foreign = await get(`/r/${consentId}?clientId=${other.clientId}`);
    expect(drawnRoot(foreign.body)).toContain(
      'Unauthorized: This clientId is not authorized to access this consent',
    );
    // The refusal tells no more than the page's own read would: the consent is not in it.
    expect(foreign.body).not.toContain('Order 17');
  });

  it('draws Missing Client ID without a clientId, and reads no consent', async () => {
    const response = await get(`/r/${consentId}`);
    expect(drawnRoot(response.body)).toContain('Missing Client ID');
    expect(answersIn(response.body)).not.toHaveProperty('consent');
  });

  it("names the merchant in a standalone page's title, and marks an embedded page's body", async () => {
    const standalone = await get(`/r/${consentId}?clientId=${owner.clientId}`);
    expect(standalone.body).toContain('<title>Tola Stores - Consent Request</title>');
    expect(standalone.body).toContain('<body>');
    const embedded = await get(`/r/${consentId}?clientId=${owner.clientId}&embed=true`);
    expect(embedded.body).toContain('<body class="embedded">');
    expect(embedded.body).toContain('<title>Consent Request</title>');
  });

  it('leaves to the page one clientId given twice, or ids we never issue, preloading its calls at low priority', async () => {
    for (const url of [
      `/r/${consentId}?clientId=${owner.clientId}&clientId=${other.clientId}`,
      `/r/${consentId}?clientId=${owner.clientId}%22%3E%3Cscript%3E`,
      `/r/%3Cb%3E?clientId=${owner.clientId}`,
    ]) {
      const body = (await get(url)).body;
      expect(body).toContain('<div id="root"></div>');
      expect(answersIn(body)).toBeNull();
      expect(preloads(body)).toContain(preloadOf('/api/public-config'));
      expect(preloads(body).filter((tag) => tag.includes('/api/consent/'))).toEqual([]);
      const named = modulePreloads(body);
      for (const file of (chunks.route ?? []).filter((f) => !built.includes(f))) {
        expect(named).toContainEqual({ file, low: true });
      }
    }
  });

  it('draws nothing on the other pages', async () => {
    for (const url of ['/', '/login', '/sandbox/grant-signing']) {
      const body = (await get(url)).body;
      expect(body).toContain('<div id="root"></div>');
      expect(preloads(body)).toEqual([]);
      expect(modulePreloads(body).filter((tag) => tag.low)).toEqual([]);
    }
  });
});

describe('compression', () => {
  const script = assets.find((file) => file.endsWith('.js') && !file.endsWith('.map'));
  const original = () => readFileSync(path.join(webDir, 'assets', script ?? ''));
  const fetchAsset = (acceptEncoding?: string) =>
    app.inject({
      method: 'GET',
      url: `/assets/${script}`,
      headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
    });

  it('sends the build brotli-compressed to a browser that takes it, as built', async () => {
    const response = await fetchAsset('gzip, deflate, br, zstd');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(response.rawPayload).equals(original())).toBe(true);
    expect(response.rawPayload.length).toBeLessThan(original().length / 2);
  });

  it('sends gzip to a browser without brotli, and the file as it is to one without either', async () => {
    const gzipped = await fetchAsset('gzip');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).equals(original())).toBe(true);
    const plain = await fetchAsset();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(original())).toBe(true);
  });

  it('compresses the consent page itself', async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/r/${consentId}?clientId=${owner.clientId}`,
      headers: { 'accept-encoding': 'br' },
    });
    expect(response.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(response.rawPayload).toString()).toContain('<div id="root">');
  });

  it('serves the compressed copies only in place of their file, not at their own address', async () => {
    for (const suffix of ['.br', '.gz']) {
      expect((await get(`/assets/${script}${suffix}`)).statusCode).toBe(404);
    }
  });
});

describe('the embed script', () => {
  const url = `/sdk/v${SDK_VERSION}/oya-consent.js`;

  it('is readable by merchant pages of any origin and kept by browsers for a year at its version', async () => {
    const response = await app.inject({
      method: 'GET',
      url,
      headers: { origin: 'https://shop.tola.example', 'accept-encoding': 'gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(response.rawPayload).equals(readFileSync(path.join(webDir, url)))).toBe(true);
  });

  it("serves its major's moving address and the manifest readable anywhere, with a short cache", async () => {
    for (const moving of ['/sdk/v1/oya-consent.js', '/sdk/manifest.json']) {
      const response = await app.inject({ method: 'GET', url: moving });
      expect(response.statusCode, moving).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['cache-control']).toBe(SDK_ALIAS_CACHE);
    }
  });

  it('lists each version with the integrity of the script served at its address', async () => {
    const manifest = (await app.inject({ method: 'GET', url: '/sdk/manifest.json' })).json<{
      latest: string;
      releases: Record<string, { url: string; integrity: string }>;
    }>();
    expect(manifest.latest).toBe(SDK_VERSION);
    expect(Object.keys(manifest.releases)).toContain(SDK_VERSION);
    for (const release of Object.values(manifest.releases)) {
      const served = await app.inject({ method: 'GET', url: release.url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const hash = createHash('sha384').update(served.rawPayload).digest('base64');
      expect(`sha384-${hash}`).toBe(release.integrity);
    }
  });

  it('stays within its budget of 8 KB gzip', () => {
    const gzipped = readFileSync(path.join(webDir, `${url}.gz`));
    expect(gzipped.length).toBeLessThanOrEqual(8000);
  });
});
