// Who may read or follow a payment (docs/payments.md "Who reads a payment"; docs/security.md
// "Who reads a payment"): once someone has started paying it, only its payer — the signed-in
// payer who paid, or the page holding its charge token. Anyone else finds no payment, as for an
// id that does not exist: the read, a stream ticket, the stream and the history alike.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorCode } from '../../domain/errors';
import { ZPaymentStateResponse } from '../../domain/schemas/payment';
import { paymentAttempts } from '../db/schema';
import { signedUpPayer, type TSignedUpPayer } from '../testing/identity';
import {
  consentWithPayment,
  encryptedCard,
  payByTransfer,
  sandboxAccount,
  sandboxCard,
} from '../testing/payments';
import { collectSse, type TSseEvent } from '../testing/sse';
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
