// Who may read or follow a payment (docs/payments.md "Who reads a payment"; docs/security.md
// "Who reads a payment"): once someone has started paying it, only its payer — the signed-in
// payer who paid, or the page holding its charge token (every attempt made without sign-in gives
// its page one; the consent link alone is not enough). Anyone else finds no payment, as for an
// id that does not exist: the read, a stream ticket, the stream and the history alike. The
// consent read, which anyone with the link makes, names no bank or account a payment came from.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorCode } from '../../domain/errors';
import { ZPaymentStateResponse } from '../../domain/schemas/payment';
import { paymentAttempts } from '../db/schema';
import { bankName } from '../sandbox/bank-directory';
import { signedUpPayer, type TSignedUpPayer } from '../testing/identity';
import {
  consentWithPayment,
  encryptedCard,
  payByCard,
  payByTransfer,
  sandboxAccount,
  sandboxCard,
  sandboxTransfer,
} from '../testing/payments';
import { collectSse, type TSseEvent } from '../testing/sse';
import { chipPurchase, readChipCard } from '../testing/terminal';
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

type TConsent = Awaited<ReturnType<typeof consentWithPayment>>;

const readAs = (consent: TConsent, payer: TSignedUpPayer) =>
  ctx.app.inject({ url: `/api/payments/${consent.paymentId}`, headers: payer.headers });

const ticketFor = (consent: TConsent, payer: TSignedUpPayer) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/events/tickets',
    headers: payer.headers,
    payload: { stream: 'payment', paymentId: consent.paymentId },
  });

/** The answer for a payment that does not exist: what another payer must get. */
async function unknownPaymentAnswer(payer: TSignedUpPayer) {
  const response = await ctx.app.inject({
    url: '/api/payments/pay_doesnotexist0000000000',
    headers: payer.headers,
  });
  expect(response.statusCode).toBe(404);
  return response.json<unknown>();
}

function expectNoPayment(response: { statusCode: number; json<T>(): T }, unknown: unknown) {
  expect(response.statusCode).toBe(404);
  const body = response.json<{ success: boolean; error: { code: string } }>();
  expect(isErrorCode(body.error.code)).toBe(true);
  expect(body).toEqual(unknown);
}

const statuses = (events: TSseEvent[]) =>
  events.filter((e) => e.event === 'payment_status').map((e) => e.data.status);

describe('a payment on a consent that needs sign-in, paid by one payer', () => {
  it('is refused to another signed-in payer (read, ticket, history) as an unknown payment, and still read and followed by its payer', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database, { requiresAuth: true });
    const payerA = await signedUpPayer(ctx.app, 'Adaeze Okonkwo');
    const payerB = await signedUpPayer(ctx.app, 'Bola Adeyemi');
    // Before anyone pays, whoever may pay reads it: the page opens on it.
    expect((await readAs(consent, payerB)).statusCode).toBe(200);
    // A ticket payer B took before A paid opens nothing after it.
    const early = await ticketFor(consent, payerB);
    expect(early.statusCode).toBe(200);

    const sent = await payByTransfer(ctx.app, consent, { from, token: payerA.token });
    expect(sent.json()).toMatchObject({ outcome: 'credited' });

    const unknown = await unknownPaymentAnswer(payerB);
    expectNoPayment(await readAs(consent, payerB), unknown);
    expectNoPayment(await ticketFor(consent, payerB), unknown);
    const earlyStream = await collectSse(
      base,
      `/api/events/payments/${consent.paymentId}?ticket=${early.json<{ ticket: string }>().ticket}&lastEventId=0`,
      () => false,
    );
    expect(earlyStream.status).toBe(404);
    const history = await ctx.app.inject({ url: '/api/payments/history', headers: payerB.headers });
    expect(history.json<{ payments: Array<{ paymentId: string }> }>().payments).toEqual([]);

    // Its payer still reads it, whole, and follows it.
    const own = await readAs(consent, payerA);
    expect(own.statusCode).toBe(200);
    expect(ZPaymentStateResponse.parse(own.json())).toMatchObject({
      status: 'completed',
      payerBank: { accountNumber: adaeze.accountNumber },
    });
    const ticket = await ticketFor(consent, payerA);
    expect(ticket.statusCode).toBe(200);
    const followed = await collectSse(
      base,
      `/api/events/payments/${consent.paymentId}?ticket=${ticket.json<{ ticket: string }>().ticket}&lastEventId=0`,
      (seen) => statuses(seen).includes('completed'),
    );
    expect(followed.status).toBe(200);
    expect(statuses(followed.events)).toContain('completed');
    const ownHistory = await ctx.app.inject({
      url: '/api/payments/history',
      headers: payerA.headers,
    });
    expect(ownHistory.json<{ payments: Array<{ paymentId: string }> }>().payments).toEqual([
      expect.objectContaining({ paymentId: consent.paymentId, status: 'executed' }),
    ]);
  });

  it("does not carry another payer's attempt to a stream opened before it began", async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database, { requiresAuth: true });
    const payerA = await signedUpPayer(ctx.app, 'Adaeze Okonkwo');
    const payerB = await signedUpPayer(ctx.app, 'Bola Adeyemi');
    const payByCardAs = async (payer: TSignedUpPayer, scenario: 'declined' | 'pin_only') =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/payments/card',
        headers: payer.headers,
        payload: {
          paymentId: consent.paymentId,
          cardDetails: await encryptedCard(ctx.app, sandboxCard(scenario)),
          saveCard: false,
        },
      });
    const attemptsOf = async (payer: TSignedUpPayer) =>
      (
        await ctx.database.db
          .select({ id: paymentAttempts.id })
          .from(paymentAttempts)
          .where(eq(paymentAttempts.payerId, payer.userId))
      ).map((row) => row.id);
    const ticket = (await ticketFor(consent, payerB)).json<{ ticket: string }>().ticket;
    // B's stream is open (its 'ready' came) when A's card is declined and then B's pays; B's
    // completed event, the stream's last, says B's stream has had everything it will hear.
    const { status, events } = await collectSse(
      base,
      `/api/events/payments/${consent.paymentId}?ticket=${ticket}`,
      (seen) => statuses(seen).includes('completed'),
      {},
      async () => {
        expect((await payByCardAs(payerA, 'declined')).statusCode).toBe(402);
        expect((await payByCardAs(payerB, 'pin_only')).statusCode).toBe(200);
      },
    );
    expect(status).toBe(200);
    const attempts = events
      .filter((e) => e.event === 'payment_status')
      .map((e) => (e.data.attempt as { attemptId: string }).attemptId);
    const [attemptOfA] = await attemptsOf(payerA);
    expect(attemptOfA).toBeDefined();
    expect(attempts).not.toContain(attemptOfA);
    expect(new Set(attempts)).toEqual(new Set(await attemptsOf(payerB)));
  });
});

describe('a payment on a consent that needs no sign-in, paid without sign-in', () => {
  /** The payment's read by whoever holds the consent link, with the tokens given. */
  const readByLink = (consent: TConsent, chargeTokens: string[] = []) =>
    ctx.app.inject({
      url: `/api/payments/${consent.paymentId}?${new URLSearchParams([
        ['consentId', consent.consentId],
        ...chargeTokens.map((token) => ['chargeToken', token]),
      ]).toString()}`,
    });
  const streamUrl = (consent: TConsent, chargeTokens: string[] = []) =>
    `/api/events/payments/${consent.paymentId}?${new URLSearchParams([
      ['consentId', consent.consentId],
      ['clientId', consent.client.clientId],
      ['lastEventId', '0'],
      ...chargeTokens.map((token) => ['chargeToken', token]),
    ]).toString()}`;
  /** The answer for a payment that does not exist, to whoever holds this consent's link. */
  async function unknownByLink(consent: TConsent) {
    const response = await ctx.app.inject({
      url: `/api/payments/pay_doesnotexist0000000000?consentId=${consent.consentId}`,
    });
    expect(response.statusCode).toBe(404);
    return response.json<unknown>();
  }
  const consentRead = async (consent: TConsent) => {
    const response = await ctx.app.inject({
      url: `/api/consent/${consent.consentId}?clientId=${consent.client.clientId}`,
    });
    expect(response.statusCode).toBe(200);
    return response;
  };

  it('a card charge answered at once gives its page a token, and only with it is the payment read and followed', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const charged = await payByCard(ctx.app, consent, 'pin_only');
    expect(charged.statusCode).toBe(200);
    const { chargeToken } = charged.json<{ message: string; chargeToken?: string }>();
    expect(charged.json()).toMatchObject({ message: 'Payment successful' });
    if (!chargeToken?.startsWith('cht_')) throw new Error(`no charge token: ${charged.body}`);

    // The link alone, or with another page's token: no payment, as for an id that does not exist.
    const unknown = await unknownByLink(consent);
    expect(unknown).toMatchObject({ error: { code: 'NO_IMMEDIATE_PAYMENT' } });
    expectNoPayment(await readByLink(consent), unknown);
    const other = await consentWithPayment(ctx.app, ctx.database);
    const otherToken = (await payByCard(ctx.app, other, 'pin_only')).json<{ chargeToken: string }>()
      .chargeToken;
    expectNoPayment(await readByLink(consent, [otherToken]), unknown);
    const head = await ctx.app.inject({ method: 'HEAD', url: streamUrl(consent) });
    expect(head.statusCode).toBe(404);
    expect((await collectSse(base, streamUrl(consent), () => false)).status).toBe(404);

    // The page that paid reads and follows it.
    const own = await readByLink(consent, [chargeToken]);
    expect(own.statusCode).toBe(200);
    expect(ZPaymentStateResponse.parse(own.json())).toMatchObject({
      status: 'completed',
      method: 'card',
    });
    const followed = await collectSse(base, streamUrl(consent, [chargeToken]), (seen) =>
      statuses(seen).includes('completed'),
    );
    expect(followed.status).toBe(200);
    expect(statuses(followed.events)).toContain('completed');
  });

  it('the consent read tells the link how the payment was paid, not the bank or account it came from; the page that paid reads them from the payment', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const opened = await ctx.app.inject({
      method: 'POST',
      url: `/api/payments/${consent.paymentId}/transfer?consentId=${consent.consentId}`,
    });
    expect(opened.statusCode).toBe(200);
    const { chargeToken, transferDetails } = opened.json<{
      chargeToken?: string;
      transferDetails: { accountNumber: string; amount: number };
    }>();
    if (!chargeToken) throw new Error('the one-time account came without its token');
    const { accountNumber, amount } = transferDetails;
    const sent = await sandboxTransfer(ctx.app, { accountNumber, amount, from });
    expect(sent.json()).toMatchObject({ outcome: 'credited' });

    const read = await consentRead(consent);
    const [payment] = read.json<{
      consent: { payments: Array<{ status: string; origin: Record<string, unknown> | null }> };
    }>().consent.payments;
    // What the page chooses its screen by: paid, by transfer, from an account it may offer to link.
    expect(payment).toMatchObject({ status: 'executed' });
    expect(payment?.origin).toEqual({
      paymentMethod: 'bank_transfer',
      shouldPromptBankAccountLinking: true,
    });
    const masked = `****${adaeze.accountNumber.slice(-4)}`;
    const adaezeBank = bankName(adaeze.institutionCode);
    if (!adaezeBank) throw new Error('the sandbox names no bank for the account');
    expect(read.body).not.toContain(masked);
    expect(read.body).not.toContain(adaezeBank);

    expectNoPayment(await readByLink(consent), await unknownByLink(consent));
    const own = await readByLink(consent, [chargeToken]);
    expect(own.statusCode).toBe(200);
    expect(ZPaymentStateResponse.parse(own.json()).payerBank).toMatchObject({
      bankName: adaezeBank,
      accountNumber: masked,
    });
  });

  it('is refused to a signed-in stranger (read and ticket) as an unknown payment', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    expect((await payByCard(ctx.app, consent, 'pin_only')).statusCode).toBe(200);
    const stranger = await signedUpPayer(ctx.app, 'Bola Adeyemi');
    const unknown = await unknownPaymentAnswer(stranger);
    expectNoPayment(await readAs(consent, stranger), unknown);
    expectNoPayment(await ticketFor(consent, stranger), unknown);
  });

  it('a chip purchase gives its page a token, and only with it is the payment read', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const read = await readChipCard(ctx.app, 'chip_approved', consent.amount);
    const bought = await chipPurchase(ctx.app, {
      ...read,
      paymentId: consent.paymentId,
      consentId: consent.consentId,
    });
    expect(bought.statusCode).toBe(200);
    const { chargeToken } = bought.json<{ chargeToken?: string }>();
    if (!chargeToken?.startsWith('cht_')) throw new Error(`no charge token: ${bought.body}`);
    expectNoPayment(await readByLink(consent), await unknownByLink(consent));
    const own = await readByLink(consent, [chargeToken]);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ status: 'completed', method: 'chip_card' });
  });
});
