// Who sees where a payment's money came from (docs/payments.md "Who sees the origin"): the payer
// who paid and the merchant's API see the bank account in full; another signed-in payer, a page
// that paid without sign-in, and a stream opened by anyone else see the bank and the last four
// digits, never the account name or the whole number. The consent read, which anyone with the link
// makes, names no account at all ("Who reads a payment").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZConsentReadResponse } from '../../domain/schemas/consent';
import { ZGrantResponse } from '../../domain/schemas/consent-api';
import { ZMerchantConsentResponse } from '../../domain/schemas/merchant-api';
import { ZPaymentStateResponse } from '../../domain/schemas/payment';
import { signedUpPayer, type TSignedUpPayer } from '../testing/identity';
import { consentWithPayment, payByTransfer, sandboxAccount } from '../testing/payments';
import { collectSse } from '../testing/sse';
import { startTestApp } from '../testing/test-app';

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let base: string;
beforeAll(async () => {
  ctx = await startTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => ctx.close());

const adaeze = sandboxAccount('links_by_test_transfer');
const from = { institutionCode: adaeze.institutionCode, accountNumber: adaeze.accountNumber };
const full = {
  bankName: 'Guaranty Trust Bank',
  accountName: adaeze.accountName,
  accountNumber: adaeze.accountNumber,
  institutionCode: adaeze.institutionCode,
};
const masked = {
  bankName: 'Guaranty Trust Bank',
  accountName: null,
  accountNumber: `****${adaeze.accountNumber.slice(-4)}`,
  institutionCode: adaeze.institutionCode,
};

/** Nothing in an answer gives the payer away: not their name, not their whole number. */
const expectNothingOfThePayer = (body: string) => {
  expect(body).not.toContain(adaeze.accountName);
  expect(body).not.toContain(adaeze.accountNumber);
};

type TPaid = Awaited<ReturnType<typeof consentWithPayment>>;

/** A consent's immediate payment paid by transfer from Adaeze's account, by `payer` or anonymously. */
async function paidFromAdaeze(payer?: TSignedUpPayer): Promise<TPaid> {
  const consent = await consentWithPayment(ctx.app, ctx.database);
  const sent = await payByTransfer(ctx.app, consent, {
    from,
    ...(payer ? { token: payer.token } : {}),
  });
  expect(sent.json()).toMatchObject({ outcome: 'credited' });
  return consent;
}

const readPayment = async (consent: TPaid, payer?: TSignedUpPayer) => {
  const response = await ctx.app.inject({
    method: 'GET',
    url: payer
      ? `/api/payments/${consent.paymentId}`
      : `/api/payments/${consent.paymentId}?consentId=${consent.consentId}`,
    headers: payer?.headers ?? {},
  });
  expect(response.statusCode, response.body).toBe(200);
  return { body: response.body, read: ZPaymentStateResponse.parse(response.json()) };
};

/** The payment's completed event on its stream, opened with `query` from the stream's start. */
async function completedEvent(consent: TPaid, query: string) {
  const { status, events } = await collectSse(
    base,
    `/api/events/payments/${consent.paymentId}?${query}`,
    (seen) => seen.some((e) => e.data.status === 'completed'),
  );
  expect(status).toBe(200);
  const completed = events.find((e) => e.data.status === 'completed');
  expect(completed?.data).toMatchObject({ eventType: 'payment_success' });
  return completed?.data;
}

const ticketFor = async (consent: TPaid, payer: TSignedUpPayer) => {
  const issued = await ctx.app.inject({
    method: 'POST',
    url: '/api/events/tickets',
    headers: payer.headers,
    payload: { stream: 'payment', paymentId: consent.paymentId },
  });
  expect(issued.statusCode, issued.body).toBe(200);
  return issued.json<{ ticket: string }>().ticket;
};

describe('the account a payment came from', () => {
  let payerA: TSignedUpPayer;
  let payerB: TSignedUpPayer;
  let consent: TPaid;
  beforeAll(async () => {
    payerA = await signedUpPayer(ctx.app, adaeze.accountName);
    payerB = await signedUpPayer(ctx.app, 'Bola Ahmed');
    consent = await paidFromAdaeze(payerA);
  });

  it('reads in full by the payer who paid, on GET /api/payments/{id}', async () => {
    const { read } = await readPayment(consent, payerA);
    expect(read).toMatchObject({ status: 'completed', payerBank: full });
  });

  // docs/payments.md "Who reads a payment": not even masked, the payment is not theirs to read.
  it('is no payment to another signed-in payer who has only the paymentId, nor to the consent link', async () => {
    for (const payer of [payerB, undefined]) {
      const response = await ctx.app.inject({
        url: payer
          ? `/api/payments/${consent.paymentId}`
          : `/api/payments/${consent.paymentId}?consentId=${consent.consentId}`,
        headers: payer?.headers ?? {},
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: { code: 'NO_IMMEDIATE_PAYMENT' } });
    }
  });

  // PostgreSQL delivers streams through LISTEN/NOTIFY, and never caches the consent read.
  it(
    'streams in full to the payer who paid; no ticket for another payer, no stream on the link',
    { tags: ['postgres'] },
    async () => {
      expect(
        await completedEvent(consent, `ticket=${await ticketFor(consent, payerA)}`),
      ).toMatchObject({ payerBank: full });
      const other = await ctx.app.inject({
        method: 'POST',
        url: '/api/events/tickets',
        headers: payerB.headers,
        payload: { stream: 'payment', paymentId: consent.paymentId },
      });
      expect(other.statusCode).toBe(404);
      const link = await collectSse(
        base,
        `/api/events/payments/${consent.paymentId}?consentId=${consent.consentId}&clientId=${consent.client.clientId}`,
        () => false,
      );
      expect(link.status).toBe(404);
    },
  );

  it(
    'shows not at all on the consent read anyone with the link makes: only how it was paid',
    { tags: ['postgres'] },
    async () => {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `/api/consent/${consent.consentId}?clientId=${consent.client.clientId}`,
      });
      expect(response.statusCode).toBe(200);
      const payment = ZConsentReadResponse.parse(response.json()).consent.payments[0];
      expect(payment?.origin).toEqual({
        paymentMethod: 'bank_transfer',
        shouldPromptBankAccountLinking: expect.any(Boolean),
      });
      expect(response.body).not.toContain(masked.accountNumber);
      expectNothingOfThePayer(response.body);
    },
  );

  it("shows in full on the merchant's API", async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/consents/${consent.consentId}`,
      headers: { authorization: consent.client.authorization },
    });
    expect(response.statusCode, response.body).toBe(200);
    const payment = ZMerchantConsentResponse.parse(response.json()).consent.payments[0];
    expect(payment?.origin).toMatchObject({ paymentMethod: 'bank_transfer', ...full });
  });

  it('shows masked on the grant answer of a payer who did not pay, anonymous or signed in', async () => {
    const paidAnonymously = await paidFromAdaeze();
    const grant = (headers: Record<string, string> = {}) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/consent/${paidAnonymously.consentId}/grant`,
        headers,
        payload: {
          originalRequestId: null,
          consentData: { consentId: paidAnonymously.consentId },
          userAuthenticated: false,
          attestDiscoveryId: null,
          immediatePayments: { granted: true, selectedAccounts: [], paymentMethods: [] },
        },
      });
    const granted = await grant();
    expect(granted.statusCode, granted.body).toBe(200);
    expect(ZGrantResponse.parse(granted.json()).consent.payments[0]?.origin).toMatchObject(masked);
    expectNothingOfThePayer(granted.body);
    // Granted already: a signed-in payer's grant answers the consent as it stands.
    const again = await grant(payerB.headers);
    expect(again.statusCode, again.body).toBe(200);
    expect(ZGrantResponse.parse(again.json())).toMatchObject({ status: 'granted' });
    expectNothingOfThePayer(again.body);
  });
});
