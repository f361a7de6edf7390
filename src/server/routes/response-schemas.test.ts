// One catalogue and one schema per answer on both sides: every JSON route declares the domain
// schema of its answers, so the server cannot send a shape the page's fetcher (src/web/api) would
// not parse.
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZApiErrorBody } from '../../domain/schemas/api-error';
import { payerBankOf } from '../../domain/after-payment';
import { maskOrigin } from '../../domain/origin-privacy';
import { ZOkResponse } from '../../domain/schemas/auth';
import { ZPayerBank } from '../../domain/schemas/card';
import { ZPaymentOrigin } from '../../domain/schemas/consent';
import { ZPaymentStatusEvent } from '../../domain/schemas/payment';
import { buildApp } from '../app';
import type { TDatabase } from '../db/database';
import { openTestDatabase, testConfig } from '../testing/test-app';
import { jsonAnswers } from './responses';

let database: TDatabase;
let app: Awaited<ReturnType<typeof buildApp>>;

beforeAll(async () => {
  database = await openTestDatabase();
  app = await buildApp({ config: testConfig(), database, logger: false });
  // A route that breaks its promise: what the serializer does with it.
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/api/test/broken-promise',
      { schema: { response: jsonAnswers({ 200: ZOkResponse }) } },
      async () => ({ success: 'yes' }) as unknown as { success: true },
    );
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
});

describe('response schemas', () => {
  it('are declared by every JSON route: its success answers, and the catalogue body for failures', () => {
    const api = app.routeTable.filter((route) => route.url.startsWith('/api/'));
    expect(api.length).toBeGreaterThan(10);
    const missing = api.filter((route) => {
      const response = route.schema?.response as Record<string, unknown> | undefined;
      const success = Object.keys(response ?? {}).filter((status) => /^2\d\d$/.test(status));
      return (
        success.length === 0 ||
        response?.['4xx'] !== ZApiErrorBody ||
        response['5xx'] !== ZApiErrorBody
      );
    });
    expect(missing.map((route) => `${route.method} ${route.url}`)).toEqual([]);
  });

  it('keep a route from answering a shape the page would not parse: a 500 in the catalogue shape instead', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test/broken-promise' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      success: false,
      error: { code: 'API_REQUEST_FAILED', message: 'API request failed' },
    });
  });

  it('take a masked origin as the payer who did not pay reads it, leaving it as it is', () => {
    const origin = maskOrigin({
      paymentMethod: 'bank_transfer' as const,
      accountNumber: '0123456785',
      accountName: 'Adaeze Okonkwo',
      institutionCode: '058',
      bankId: 'pac_1',
      bankName: 'Guaranty Trust Bank',
      integrations: { transactionService: { linked: true } },
    });
    const payerBank = payerBankOf(origin);
    expect(ZPaymentOrigin.parse(origin)).toEqual(origin);
    const event = { paymentId: 'pay_1', status: 'completed' as const, payerBank };
    expect(ZPaymentStatusEvent.parse(event)).toEqual(event);
    expect(ZPayerBank.parse(payerBank)).toEqual({
      bankName: 'Guaranty Trust Bank',
      accountName: null,
      accountNumber: '****6785',
      institutionCode: '058',
    });
  });

  it('keep a failure to the catalogue shape', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/consent/cns_nope' });
    expect(response.statusCode).toBe(400);
    expect(ZApiErrorBody.parse(response.json()).error.code).toBe('MISSING_CLIENT_ID');
  });
});
