// A card on one payment (docs/payments.md "Limits"): after a few wrong PINs or card details the
// card is blocked for that payment, counted in the database in one statement, so neither a patient
// guesser nor concurrent guesses get past the limit.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CARD_WRONG_TRIES_PER_PAYMENT } from '../../domain/card-tries';
import { cardPaymentTries, paymentAttempts } from '../db/schema';
import { cardKeyOf, claimCardTry } from '../services/payments/card-tries';
import { useTestApp } from '../testing/test-app';
import {
  consentWithPayment,
  encryptedCard,
  ledgerKinds,
  sandboxCard,
  type TCardScenarioName,
} from '../testing/payments';

const ctx = useTestApp();

type TConsent = Awaited<ReturnType<typeof consentWithPayment>>;

/** Charges the payment with the scenario's card, some of its details changed. */
async function charge(
  consent: TConsent,
  scenario: TCardScenarioName,
  change: { pin?: string; cvv?: string } = {},
) {
  const card = { ...sandboxCard(scenario), ...change };
  return ctx.app.inject({
    method: 'POST',
    url: '/api/payments/card/public',
    payload: {
      paymentId: consent.paymentId,
      consentId: consent.consentId,
      cardDetails: await encryptedCard(ctx.app, card),
      saveCard: false,
    },
  });
}

/** How many charges of the payment reached the network and were refused for a wrong PIN. */
async function wrongPinsAtNetwork(paymentId: string): Promise<number> {
  const rows = await ctx.database.db
    .select({ id: paymentAttempts.id })
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.paymentId, paymentId),
        eq(paymentAttempts.failureReason, 'incorrect_pin'),
      ),
    );
  return rows.length;
}

const blocked = {
  success: false,
  error: {
    code: 'CARD_BLOCKED_FOR_PAYMENT',
    message: 'Too many wrong PINs or card details for this payment. Please use another card.',
  },
};

describe('wrong PINs and card details on one payment', () => {
  it('30 wrong PINs, then the right one: blocked after the limit, the payment not paid by that card', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const statuses: number[] = [];
    for (let i = 0; i < 30; i += 1)
      statuses.push((await charge(consent, 'pin_only', { pin: '9999' })).statusCode);
    expect(statuses).toEqual([
      ...Array<number>(CARD_WRONG_TRIES_PER_PAYMENT).fill(402),
      ...Array<number>(30 - CARD_WRONG_TRIES_PER_PAYMENT).fill(403),
    ]);
    expect(await wrongPinsAtNetwork(consent.paymentId)).toBe(CARD_WRONG_TRIES_PER_PAYMENT);

    const right = await charge(consent, 'pin_only');
    expect(right.statusCode).toBe(403);
    expect(right.json()).toEqual(blocked);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([]);

    // Another card still pays it.
    const other = await charge(consent, 'pin_otp');
    expect(other.statusCode).toBe(200);
    expect(other.json()).toMatchObject({ requiresOTP: true });
  });

  it('wrong CVVs count like wrong PINs; the same card stays good for another payment', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    expect((await charge(consent, 'pin_only', { pin: '9999' })).statusCode).toBe(402);
    for (let i = 1; i < CARD_WRONG_TRIES_PER_PAYMENT; i += 1) {
      const wrongCvv = await charge(consent, 'pin_only', { cvv: '000' });
      expect(wrongCvv.json().error.message).toBe('Card payment failed: Check the card details');
    }
    expect((await charge(consent, 'pin_only')).json()).toEqual(blocked);

    const another = await consentWithPayment(ctx.app, ctx.database);
    expect((await charge(another, 'pin_only')).statusCode).toBe(200);
  });

  it('a right PIN after wrong ones pays, and declines for other reasons do not block the card', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    for (let i = 0; i < 5; i += 1) expect((await charge(consent, 'declined')).statusCode).toBe(402);
    for (let i = 1; i < CARD_WRONG_TRIES_PER_PAYMENT; i += 1) {
      expect((await charge(consent, 'pin_only', { pin: '9999' })).statusCode).toBe(402);
    }
    expect((await charge(consent, 'pin_only')).statusCode).toBe(200);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
  });

  it(
    'concurrent wrong PINs cannot pass the limit together',
    { tags: ['postgres'], timeout: 600_000 },
    async () => {
      const consent = await consentWithPayment(ctx.app, ctx.database);
      const seen = new Set<number>();
      for (let round = 0; round < 8; round += 1) {
        const answers = await Promise.all(
          Array.from({ length: 6 }, () => charge(consent, 'pin_only', { pin: '9999' })),
        );
        for (const answer of answers) seen.add(answer.statusCode);
      }
      // 402 a wrong PIN at the network, 409 another charge of the payment was at the network,
      // 403 blocked.
      expect([...seen].every((status) => [402, 403, 409].includes(status))).toBe(true);
      expect(await wrongPinsAtNetwork(consent.paymentId)).toBe(CARD_WRONG_TRIES_PER_PAYMENT);
      expect((await charge(consent, 'pin_only')).json()).toEqual(blocked);
    },
  );

  it(
    'the claim checks and counts in one statement: of 20 at once, only the limit get a try',
    { tags: ['postgres'] },
    async () => {
      const consent = await consentWithPayment(ctx.app, ctx.database);
      const cardKey = await cardKeyOf(ctx.database.db, sandboxCard('pin_only').number);
      const claims = await Promise.allSettled(
        Array.from({ length: 20 }, () =>
          ctx.database.db.transaction((tx) =>
            claimCardTry(tx, consent.paymentId, cardKey, new Date()),
          ),
        ),
      );
      expect(claims.filter((c) => c.status === 'fulfilled')).toHaveLength(
        CARD_WRONG_TRIES_PER_PAYMENT,
      );
      const [row] = await ctx.database.db
        .select()
        .from(cardPaymentTries)
        .where(eq(cardPaymentTries.paymentId, consent.paymentId));
      expect(row).toMatchObject({ tries: CARD_WRONG_TRIES_PER_PAYMENT });
      // The card is known by its keyed hash only (HMAC-SHA-256, base64url).
      expect(row?.cardKey).toMatch(/^[\w-]{43}$/);
    },
  );
});
