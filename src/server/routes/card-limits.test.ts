// Card testing (docs/payments.md "Limits"): one card refused too often across payments, and charges
// from one address, meet the catalogue's 429 with Retry-After. The limits are small here
// (rateLimits); each test uses addresses and card numbers of its own.
import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { paymentAttempts } from '../db/schema';
import { signUp, testPhone } from '../testing/identity';
import { expectRateLimited } from '../testing/rate-limits';
import { useTestApp } from '../testing/test-app';
import { consentWithPayment, encryptedCard, sandboxCard } from '../testing/payments';

const HOUR = 60 * 60_000;
const perCard = { max: 3, windowMs: HOUR };
const perAddress = { max: 5, windowMs: 10 * 60_000 };

const ctx = useTestApp({
  rateLimits: { cardDeclinesPerCard: perCard, cardChargesPerAddress: perAddress },
});

let addressSeq = 0;
/** An address no other call has used. */
const newAddress = () => {
  addressSeq += 1;
  return `10.27.${addressSeq >> 8}.${addressSeq & 255}`;
};

/** A Visa number the sandbox network does not know: it declines it, as an issuer would. */
const unknownVisa = () => `4${Array.from({ length: 15 }, () => randomInt(10)).join('')}`;

type TCard = { number: string; expiry: string; cvv: string; pin: string };

async function charge(
  consent: Awaited<ReturnType<typeof consentWithPayment>>,
  card: TCard,
  remoteAddress: string,
) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/payments/card/public',
    remoteAddress,
    payload: {
      paymentId: consent.paymentId,
      consentId: consent.consentId,
      cardDetails: await encryptedCard(ctx.app, card),
      saveCard: false,
    },
  });
}

const attemptsOf = async (paymentId: string) =>
  ctx.database.db
    .select({ id: paymentAttempts.id })
    .from(paymentAttempts)
    .where(eq(paymentAttempts.paymentId, paymentId));

describe('one card across payments', () => {
  it('is refused (429, Retry-After) once declined its limit of times, from any address', async () => {
    const card = { number: unknownVisa(), expiry: '12/30', cvv: '123', pin: '1234' };
    for (let i = 0; i < perCard.max; i += 1) {
      const consent = await consentWithPayment(ctx.app, ctx.database);
      const declined = await charge(consent, card, newAddress());
      expect(declined.statusCode).toBe(402);
      expect(declined.json().error.message).toBe('Card payment failed: Declined by your bank');
    }
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const refused = await charge(consent, card, newAddress());
    expectRateLimited(refused, perCard.windowMs);
    // Refused before the network: the payment has no attempt.
    expect(await attemptsOf(consent.paymentId)).toEqual([]);

    // Other cards are not held back, on this payment or any.
    const other = await charge(consent, sandboxCard('pin_only'), newAddress());
    expect(other.statusCode).toBe(200);
  });

  it('counts wrong PINs as refusals of the card', async () => {
    const card = { ...sandboxCard('pin_otp'), pin: '9999' };
    const address = newAddress();
    for (let i = 0; i < perCard.max; i += 1) {
      const consent = await consentWithPayment(ctx.app, ctx.database);
      expect((await charge(consent, card, address)).statusCode).toBe(402);
    }
    const consent = await consentWithPayment(ctx.app, ctx.database);
    expectRateLimited(await charge(consent, { ...card, pin: '1234' }, newAddress()), HOUR);
  });
});

describe('charges from one address', () => {
  it('120 charges from one address: past the limit, 429 with Retry-After; other addresses still charge', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const address = newAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 120; i += 1) {
      const card = { number: unknownVisa(), expiry: '12/30', cvv: '123', pin: '1234' };
      const answer = await charge(consent, card, address);
      statuses.push(answer.statusCode);
      if (i === perAddress.max) expectRateLimited(answer, perAddress.windowMs);
    }
    expect(statuses).toEqual([
      ...Array<number>(perAddress.max).fill(402),
      ...Array<number>(120 - perAddress.max).fill(429),
    ]);
    expect(await attemptsOf(consent.paymentId)).toHaveLength(perAddress.max);

    const elsewhere = await charge(consent, sandboxCard('pin_only'), newAddress());
    expect(elsewhere.statusCode).toBe(200);
  });

  it('counts the signed-in card call too', async () => {
    const { token } = await signUp(ctx.app, testPhone());
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const address = newAddress();
    const statuses: number[] = [];
    for (let i = 0; i <= perAddress.max; i += 1) {
      const card = { number: unknownVisa(), expiry: '12/30', cvv: '123', pin: '1234' };
      const answer = await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/card',
        remoteAddress: address,
        headers: { authorization: `Bearer ${token}` },
        payload: {
          paymentId: consent.paymentId,
          cardDetails: await encryptedCard(ctx.app, card),
          saveCard: false,
        },
      });
      statuses.push(answer.statusCode);
    }
    expect(statuses).toEqual([...Array<number>(perAddress.max).fill(402), 429]);
  });
});
