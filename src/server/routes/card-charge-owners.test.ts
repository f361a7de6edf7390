// Who answers a card charge (docs/payments.md "Who answers a charge"): only the caller who started
// it — the same signed-in payer, or without sign-in the page holding the charge's token. Anyone
// else finds nothing (404) and the charge is untouched.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { paymentAttempts } from '../db/schema';
import { signedUpPayer, type TSignedUpPayer } from '../testing/identity';
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
const RIGHT_OTP = sandboxCard('pin_otp').otp;

/** A card charge of the consent's payment, by a signed-in payer or (null) by the consent link. */
async function charge(
  consent: TConsent,
  payer: TSignedUpPayer | null,
  scenario: TCardScenarioName,
) {
  const cardDetails = await encryptedCard(ctx.app, sandboxCard(scenario));
  return ctx.app.inject({
    method: 'POST',
    url: payer ? '/api/payments/card' : '/api/payments/card/public',
    headers: payer?.headers ?? {},
    payload: {
      paymentId: consent.paymentId,
      cardDetails,
      saveCard: false,
      ...(payer ? {} : { consentId: consent.consentId }),
    },
  });
}

/** An OTP for the payment's waiting charge, by either OTP call (spec §7). */
const sendOtp = (
  url: '/api/payments/card/complete' | '/api/consent/otp',
  consent: TConsent,
  who: { payer: TSignedUpPayer } | { chargeToken?: string },
  otp: string,
) =>
  ctx.app.inject({
    method: 'POST',
    url,
    headers: 'payer' in who ? who.payer.headers : {},
    payload: {
      paymentId: consent.paymentId,
      otp,
      ...('payer' in who ? {} : { consentId: consent.consentId, ...who }),
    },
  });

const waitingStages = async (paymentId: string) =>
  (
    await ctx.database.db
      .select({ stage: paymentAttempts.stage })
      .from(paymentAttempts)
      .where(and(eq(paymentAttempts.paymentId, paymentId), eq(paymentAttempts.method, 'card')))
  ).map((row) => row.stage);

const notFound = {
  success: false,
  error: { code: 'NO_OTP_DATA', message: 'No OTP data available' },
};

describe("another payer's charge", () => {
  it("another payer's wrong OTP answers 404 and the owner's right OTP still pays", async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const owner = await signedUpPayer(ctx.app);
    const stranger = await signedUpPayer(ctx.app);
    expect((await charge(consent, owner, 'pin_otp')).json()).toMatchObject({ requiresOTP: true });

    for (const url of ['/api/payments/card/complete', '/api/consent/otp'] as const) {
      const theirs = await sendOtp(url, consent, { payer: stranger }, '000000');
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json()).toEqual(notFound);
    }
    expect(await waitingStages(consent.paymentId)).toEqual(['awaiting_otp']);

    // The page of the consent without sign-in cannot answer a signed-in payer's charge either.
    const anonymous = await sendOtp('/api/consent/otp', consent, {}, '000000');
    expect(anonymous.statusCode).toBe(404);

    const paid = await sendOtp('/api/payments/card/complete', consent, { payer: owner }, RIGHT_OTP);
    expect(paid.statusCode).toBe(200);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
  });

  it("another payer's new card does not end the owner's waiting charge", async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const owner = await signedUpPayer(ctx.app);
    const stranger = await signedUpPayer(ctx.app);
    await charge(consent, owner, 'pin_otp');
    expect((await charge(consent, stranger, 'declined')).statusCode).toBe(402);
    expect((await charge(consent, null, 'declined')).statusCode).toBe(402);

    const paid = await sendOtp('/api/consent/otp', consent, { payer: owner }, RIGHT_OTP);
    expect(paid.statusCode).toBe(200);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
  });

  it("the payer's own new card still ends their own waiting charge", async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const owner = await signedUpPayer(ctx.app);
    await charge(consent, owner, 'pin_otp');
    await charge(consent, owner, 'pin_otp');
    expect((await waitingStages(consent.paymentId)).sort()).toEqual(['awaiting_otp', null]);
  });

  it('a read shows the OTP screen only to who may answer it', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const owner = await signedUpPayer(ctx.app);
    const stranger = await signedUpPayer(ctx.app);
    await charge(consent, owner, 'pin_otp');
    const read = (payer: TSignedUpPayer) =>
      ctx.app.inject({
        method: 'GET',
        url: `/api/payments/${consent.paymentId}`,
        headers: payer.headers,
      });
    expect((await read(owner)).json()).toMatchObject({ otpDisplayMessage: expect.any(String) });
    // Another payer's payment is not theirs to read at all (docs/payments.md "Who reads a payment").
    expect((await read(stranger)).statusCode).toBe(404);
  });
});

describe('a charge made without sign-in', () => {
  it('answers its OTP only with its own token', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const started = await charge(consent, null, 'pin_otp');
    const { chargeToken } = started.json<{ chargeToken: string }>();
    expect(chargeToken).toMatch(/^cht_/);
    // The attempt keeps only the token's hash.
    const [row] = await ctx.database.db
      .select({ ownerTokenHash: paymentAttempts.ownerTokenHash })
      .from(paymentAttempts)
      .where(eq(paymentAttempts.paymentId, consent.paymentId));
    expect(row?.ownerTokenHash).toMatch(/^[\w-]{43}$/);
    expect(row?.ownerTokenHash).not.toBe(chargeToken);

    const without = await sendOtp('/api/payments/card/complete', consent, {}, RIGHT_OTP);
    expect(without.statusCode).toBe(404);
    expect(without.json()).toEqual(notFound);
    const other = await sendOtp(
      '/api/consent/otp',
      consent,
      { chargeToken: 'cht_guess' },
      '000000',
    );
    expect(other.statusCode).toBe(404);
    expect(await waitingStages(consent.paymentId)).toEqual(['awaiting_otp']);

    const paid = await sendOtp('/api/payments/card/complete', consent, { chargeToken }, RIGHT_OTP);
    expect(paid.statusCode).toBe(200);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
  });

  it('another page of the consent cannot answer or end it', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const first = (await charge(consent, null, 'pin_otp')).json<{ chargeToken: string }>();
    // Another page starts its own charge: the first still waits, for its own page.
    const second = (await charge(consent, null, 'pin_otp')).json<{ chargeToken: string }>();
    expect(second.chargeToken).not.toBe(first.chargeToken);
    const wrong = await sendOtp(
      '/api/consent/otp',
      consent,
      { chargeToken: second.chargeToken },
      '000000',
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('OTP_VERIFICATION_FAILED');

    const paid = await sendOtp(
      '/api/consent/otp',
      consent,
      { chargeToken: first.chargeToken },
      RIGHT_OTP,
    );
    expect(paid.statusCode).toBe(200);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
  });
});
