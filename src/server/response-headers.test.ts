// Headers every answer carries: API answers are neither sniffed nor cached, and HSTS goes out only
// when the server is served over HTTPS or told to send it.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { loadConfig } from './config';
import type { TDatabase } from './db/database';
import { setPageHeaders } from './response-headers';
import { openTestDatabase, useTestApp } from './testing/test-app';

describe('API answers', () => {
  const ctx = useTestApp();

  it.each([
    ['a 200', '/api/health', 200],
    ['a 400', '/api/consent/cns_x', 400],
    ['a 404', '/api/no-such-call', 404],
    ['a 404 outside /api', '/no-such-page', 404],
  ])('carry nosniff and no-store on %s', async (_what, url, status) => {
    const response = await ctx.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('keep the caching a route chose for itself', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/public-config' });
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('Strict-Transport-Security', () => {
  let database: TDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  const hstsWith = async (env: Record<string, string>) => {
    const app: FastifyInstance = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'silent', ...env }),
      database,
      logger: false,
    });
    try {
      const response = await app.inject({ method: 'GET', url: '/api/health' });
      return response.headers['strict-transport-security'];
    } finally {
      await app.close();
    }
  };

  it('is sent by default when PUBLIC_URL is https', async () => {
    expect(await hstsWith({ PUBLIC_URL: 'https://pay.example.ng' })).toBe('max-age=31536000');
  });

  it('is not sent by default over http', async () => {
    expect(await hstsWith({ PUBLIC_URL: 'http://localhost:3999' })).toBeUndefined();
  });

  it('follows HSTS=on and HSTS=off whatever PUBLIC_URL says', async () => {
    expect(await hstsWith({ PUBLIC_URL: 'http://localhost:3999', HSTS: 'on' })).toBe(
      'max-age=31536000',
    );
    expect(await hstsWith({ PUBLIC_URL: 'https://pay.example.ng', HSTS: 'off' })).toBeUndefined();
  });

  it('stops the start on any other HSTS value', () => {
    expect(() => loadConfig({ HSTS: 'yes' })).toThrow(/^Invalid configuration: HSTS /);
  });
});

describe("a page's frame-ancestors", () => {
  const frameAncestorsOf = async (frameAncestors: string) => {
    const app = Fastify({ logger: false });
    app.get('/', (_request, reply) => setPageHeaders(reply, { nonce: 'n', frameAncestors }).send());
    try {
      const response = await app.inject({ method: 'GET', url: '/' });
      return {
        status: response.statusCode,
        policy: /frame-ancestors ([^;]*)$/.exec(
          String(response.headers['content-security-policy']),
        )?.[1],
      };
    } finally {
      await app.close();
    }
  };

  it('carries keywords and origins as a browser writes them', async () => {
    const sources = "'self' https://shop.example http://localhost:8080";
    expect(await frameAncestorsOf(sources)).toEqual({ status: 200, policy: sources });
    expect(await frameAncestorsOf("'none'")).toEqual({ status: 200, policy: "'none'" });
  });

  // A comma would end the policy and start another; a wildcard or a path is not one origin.
  it.each([
    "'self' https://x.example,https://y.example",
    "'self' https://*.example",
    "'self' https://shop.example/pay",
    "'self' null",
  ])('is never built from a source that is not an origin: %s', async (sources) => {
    expect(await frameAncestorsOf(sources)).toEqual({ status: 500, policy: undefined });
  });
});
