import { describe, expect, it } from 'vitest';
import { useTestApp } from './testing/test-app';

// A path the server serves, asked with another method: 405 with the methods it takes in Allow,
// in the catalogue shape; a path nothing serves stays 404.

const ctx = useTestApp();

const METHOD_NOT_ALLOWED = {
  success: false,
  error: {
    code: 'METHOD_NOT_ALLOWED',
    message: 'This path does not take this method; the Allow header lists the ones it takes',
  },
};

describe('a known path asked with a method it does not take', () => {
  it.each([
    ['DELETE', '/api/v1/consents', 'GET, HEAD, POST'],
    ['PUT', '/api/v1/consents/cns_123?clientId=x', 'GET, HEAD'],
    ['GET', '/api/auth/phone-codes', 'POST'],
    ['HEAD', '/api/v1/webhooks/wh_1', 'DELETE'],
    ['OPTIONS', '/api/health', 'GET, HEAD'],
    ['PATCH', '/api/v1/payments', 'GET, HEAD'],
  ] as const)('answers %s %s with 405 and Allow: %s', async (method, url, allow) => {
    const response = await ctx.app.inject({ method, url });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe(allow);
    if (method !== 'HEAD') expect(response.json()).toEqual(METHOD_NOT_ALLOWED);
  });

  it('answers 405 before reading a body it could not parse (it was a 400 naming the body)', async () => {
    const response = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v1/events',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(response.json()).toEqual(METHOD_NOT_ALLOWED);
  });

  it('answers 405 to a method no route of the app takes (TRACE)', async () => {
    const response = await ctx.app.inject({ method: 'TRACE', url: '/api/v1/events' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
  });

  it('still answers 404 for a path that no method serves', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const response = await ctx.app.inject({ method, url: '/api/v1/nothing-here' });
      expect(response.statusCode).toBe(404);
      expect(response.headers.allow).toBeUndefined();
      expect(response.json<{ error: { code: string } }>().error.code).toBe('NOT_FOUND');
    }
  });
});
