// Paying by card, every published sandbox card through its path (docs/sandbox.md): the answer, the
// payment's status, the events on its stream, and the books.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TEncryptedCard } from '../../domain/schemas/card';
import { cardEncryptionKeys, idempotencyKeys, paymentAttempts } from '../db/schema';
import { fingerprintOf } from '../services/idempotency';
import { rotateCardKey } from '../services/payments/card-encryption-keys';
import { checkLedger } from '../services/payments/ledger';
import { signUp, testPhone } from '../testing/identity';
import { statementsWaitingForALock } from '../testing/lock-waits';
import { useTestApp } from '../testing/test-app';
import {
  consentWithPayment,
  encryptedCard,
  keepPageToken,
  ledgerKinds,
  pageQuery,
  paymentEvents,
  sandboxCard,
  type TCardScenarioName,
  payByCard,
} from '../testing/payments';

const ctx = useTestApp();

/** The OTP of the charge a public card payment started, as its page sends it. */
function submitOtp(
  started: Awaited<ReturnType<typeof payPublic>>,
  { url = '/api/payments/card/complete', otp = sandboxCard('pin_otp').otp } = {},
) {
  return ctx.app.inject({
    method: 'POST',
    url,
    payload: {
      paymentId: started.paymentId,
      otp,
      consentId: started.consentId,
      chargeToken: started.response.json().chargeToken,
    },
  });
}

async function payPublic(
  scenario: TCardScenarioName,
  change: { pin?: string } = {},
  options: { requiresAuth?: boolean } = {},
) {
  const consent = await consentWithPayment(ctx.app, ctx.database, options);
  const card = sandboxCard(scenario);
  const cardDetails = await encryptedCard(ctx.app, { ...card, pin: change.pin ?? card.pin });
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/payments/card/public',
    payload: {
      paymentId: consent.paymentId,
      consentId: consent.consentId,
      cardDetails,
      saveCard: false,
    },
  });
  return { ...consent, response: keepPageToken(consent.paymentId, response) };
}

async function paymentStatus(consent: { paymentId: string; consentId: string }) {
  const state = await ctx.app.inject({
    method: 'GET',
    url: `/api/payments/${consent.paymentId}?${pageQuery(consent)}`,
  });
  expect(state.statusCode).toBe(200);
  return state.json<{
    status: string;
    executedAt: string | null;
    message: string | null;
    otpDisplayMessage: string | null;
  }>();
}

async function consentPayment(consent: { consentId: string; client: { clientId: string } }) {
  const read = await ctx.app.inject({
    method: 'GET',
    url: `/api/consent/${consent.consentId}?clientId=${consent.client.clientId}`,
  });
  return read
    .json<{ consent: { payments: Array<Record<string, unknown>> } }>()
    .consent.payments.find((p) => p.type === 'immediate');
}

const challengeReference = (url: string) => url.split('/sandbox/3ds/')[1] ?? '';

describe('paying by card, each sandbox card through its path', () => {
  it('pin_only: paid at once; executed with a card origin; in_progress then completed; booked once', async () => {
    const paid = await payPublic('pin_only');
    expect(paid.response.statusCode).toBe(200);
    expect(paid.response.json()).toMatchObject({
      success: true,
      paymentId: paid.paymentId,
      amount: paid.amount,
    });
    expect(await paymentStatus(paid)).toMatchObject({ status: 'completed' });
    // The consent read, anyone's with the link, says how it was paid, not with which card.
    expect(await consentPayment(paid)).toMatchObject({
      status: 'executed',
      executedAt: expect.any(String),
      origin: { paymentMethod: 'card', shouldPromptCardLinking: false },
    });
    expect(await consentPayment(paid)).not.toHaveProperty('origin.obfuscatedCard');
    // Each event carries its attempt as the payment read shows it.
    expect(await paymentEvents(ctx.database, paid.paymentId)).toEqual([
      {
        type: 'payment_status',
        paymentId: paid.paymentId,
        status: 'in_progress',
        attempt: expect.objectContaining({ method: 'card', state: 'charging', charged: null }),
      },
      expect.objectContaining({
        status: 'completed',
        eventType: 'payment_success',
        paymentType: 'card',
        attempt: expect.objectContaining({ state: 'completed', failureCode: null }),
      }),
    ]);
    expect(await ledgerKinds(ctx.database, paid.paymentId)).toEqual(['card_payment']);
  });

  it('pin_otp: asks for the OTP, and the right OTP completes it', async () => {
    const started = await payPublic('pin_otp');
    expect(started.response.json()).toMatchObject({
      success: true,
      requiresOTP: true,
      paymentId: started.paymentId,
      displayMessage: expect.any(String),
      chargeToken: expect.stringMatching(/^cht_/),
    });
    // A page opened again meanwhile reads the OTP screen's message from the payment.
    expect(await paymentStatus(started)).toMatchObject({
      status: 'in_progress',
      otpDisplayMessage: started.response.json().displayMessage,
    });
    const done = await submitOtp(started);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({
      success: true,
      paymentType: 'immediate',
      amount: started.amount,
      narration: 'Order #1042',
      payerCard: { brand: 'mastercard' },
    });
    expect(await paymentStatus(started)).toMatchObject({
      status: 'completed',
      otpDisplayMessage: null,
    });
    expect(await ledgerKinds(ctx.database, started.paymentId)).toEqual(['card_payment']);
    // The OTP was used: a second one finds nothing waiting.
    const again = await submitOtp(started, { url: '/api/consent/otp', otp: '123456' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('PAYMENT_ALREADY_MADE');
  });

  it('pin_otp: five OTPs at once for one waiting charge: one takes it and pays, once', async () => {
    const started = await payPublic('pin_otp');
    const otp = () => submitOtp(started);
    const answers = await Promise.all([otp(), otp(), otp(), otp(), otp()]);
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    // The others found it taken (being answered), or no longer waiting, or the payment paid.
    const refusals = answers
      .filter((answer) => answer.statusCode !== 200)
      .map((answer) => `${answer.statusCode} ${answer.json().error.code}`);
    for (const refusal of refusals) {
      expect(['409 PAYMENT_IN_PROGRESS', '404 NO_OTP_DATA', '409 PAYMENT_ALREADY_MADE']).toContain(
        refusal,
      );
    }
    expect(await ledgerKinds(ctx.database, started.paymentId)).toEqual(['card_payment']);
  });

  it('pin_otp: an OTP whose charge another request takes while it waits answers 409, and touches nothing', async () => {
    const started = await payPublic('pin_otp');
    const { db } = ctx.database;
    // Another request's transaction takes the waiting charge, then stays open until released.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let taken = () => {};
    const tookIt = new Promise<void>((resolve) => (taken = resolve));
    const other = db.transaction(async (tx) => {
      await tx
        .update(paymentAttempts)
        .set({ stage: 'charging' })
        .where(eq(paymentAttempts.paymentId, started.paymentId));
      taken();
      await held;
    });
    await tookIt;
    const answer = submitOtp(started);
    if (ctx.database.kind === 'postgres') {
      // Its statement found the charge waiting (the other's change not yet committed), and its
      // move waits on the other's lock; once the other commits, the charge is no longer waiting.
      await expect.poll(() => statementsWaitingForALock(db)).toBeGreaterThan(0);
      release();
      await other;
      const refused = await answer;
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('PAYMENT_IN_PROGRESS');
    } else {
      // One session: the request runs once the other has committed, and finds nothing waiting.
      release();
      await other;
      const refused = await answer;
      expect(refused.statusCode).toBe(404);
      expect(refused.json().error.code).toBe('NO_OTP_DATA');
    }
    expect(await ledgerKinds(ctx.database, started.paymentId)).toEqual([]);
    const [attempt] = await db
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.paymentId, started.paymentId));
    expect(attempt).toMatchObject({ status: 'in_progress', stage: 'charging' });
  });

  it('pin_otp with a wrong OTP: OTP verification failed, the payment stays unpaid', async () => {
    const started = await payPublic('pin_otp');
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/api/consent/otp',
      payload: {
        paymentId: started.paymentId,
        otp: '000000',
        consentId: started.consentId,
        chargeToken: started.response.json().chargeToken,
      },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      success: false,
      error: { code: 'OTP_VERIFICATION_FAILED', message: 'OTP verification failed' },
    });
    expect(await paymentStatus(started)).toMatchObject({
      status: 'failed',
      message: 'OTP verification failed',
    });
    expect(await ledgerKinds(ctx.database, started.paymentId)).toEqual([]);
  });

  it.each([
    [true, 'completed', ['card_payment']],
    [false, 'failed', []],
  ] as const)(
    'three_ds: the challenge page answered approved=%s leaves the payment %s',
    async (approved, status, kinds) => {
      const started = await payPublic('three_ds');
      const body = started.response.json<{ requires3DS: boolean; challengeUrl: string }>();
      expect(body).toMatchObject({ success: true, requires3DS: true });
      expect(body.challengeUrl).toMatch(/^http:\/\/localhost:3999\/sandbox\/3ds\//);
      const answer = await ctx.app.inject({
        method: 'POST',
        url: `/api/sandbox/3ds/${challengeReference(body.challengeUrl)}`,
        payload: { approved },
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({ success: true, status });
      expect(await paymentStatus(started)).toMatchObject({ status });
      const streamed = await paymentEvents(ctx.database, started.paymentId);
      expect(streamed.map((e) => e.status)).toEqual(['in_progress', 'in_progress', status]);
      expect(streamed[1]).toMatchObject({ stepText: 'Awaiting 3D Secure authentication...' });
      if (!approved) expect(streamed[2]).toMatchObject({ message: '3DS authentication failed' });
      expect(await ledgerKinds(ctx.database, started.paymentId)).toEqual(kinds);
      // A challenge is answered once.
      const twice = await ctx.app.inject({
        method: 'POST',
        url: `/api/sandbox/3ds/${challengeReference(body.challengeUrl)}`,
        payload: { approved: true },
      });
      expect(twice.statusCode).toBe(404);
    },
  );

  it.each([
    ['declined', {}, 402, 'CARD_PAYMENT_FAILED', 'Card payment failed: Declined by your bank'],
    [
      'insufficient_funds',
      {},
      402,
      'CARD_PAYMENT_FAILED',
      'Card payment failed: Insufficient funds',
    ],
    ['timeout', {}, 504, 'CARD_BANK_NO_ANSWER', 'Your bank did not answer. Nothing was charged.'],
    ['pin_only', { pin: '9999' }, 402, 'CARD_PAYMENT_FAILED', 'Card payment failed: Incorrect PIN'],
  ] as const)(
    '%s %j: %i %s, nothing booked, the stream says failed',
    async (scenario, change, status, code, message) => {
      const failed = await payPublic(scenario, change);
      expect(failed.response.statusCode).toBe(status);
      expect(failed.response.json()).toEqual({ success: false, error: { code, message } });
      // The stream says what the answer said, the issuer's reason included. A charge refused at
      // once gives its page no token (the answer told it): the link reads no payment.
      const read = await ctx.app.inject({
        url: `/api/payments/${failed.paymentId}?${pageQuery(failed)}`,
      });
      expect(read.statusCode).toBe(404);
      const events = await paymentEvents(ctx.database, failed.paymentId);
      expect(events.map((e) => e.status)).toEqual(['in_progress', 'failed']);
      expect(events[1]).toMatchObject({
        message,
        attempt: { state: 'failed', failureCode: code, message, charged: false },
      });
      expect(await ledgerKinds(ctx.database, failed.paymentId)).toEqual([]);
      // The payer may try again with another card.
      const card = sandboxCard('pin_only');
      const retry = await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/card/public',
        payload: {
          paymentId: failed.paymentId,
          consentId: failed.consentId,
          cardDetails: await encryptedCard(ctx.app, card),
          saveCard: false,
        },
      });
      expect(retry.statusCode).toBe(200);
      expect(await ledgerKinds(ctx.database, failed.paymentId)).toEqual(['card_payment']);
    },
  );
});

describe('who may pay, and what a paid payment refuses', () => {
  it('refuses an anonymous payer when the consent asks for sign-in (spec §6)', async () => {
    const refused = await payPublic('pin_only', {}, { requiresAuth: true });
    expect(refused.response.statusCode).toBe(401);
    expect(refused.response.json().error.code).toBe('SIGN_IN_REQUIRED');
  });

  it('answers another consent’s payment as not found, and a paid one as already made', async () => {
    const paid = await payPublic('pin_only');
    const other = await consentWithPayment(ctx.app, ctx.database);
    const cardDetails = await encryptedCard(ctx.app, sandboxCard('pin_only'));
    const wrongConsent = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/card/public',
      payload: {
        paymentId: paid.paymentId,
        consentId: other.consentId,
        cardDetails,
        saveCard: false,
      },
    });
    expect(wrongConsent.statusCode).toBe(404);
    expect(wrongConsent.json().error).toEqual({
      code: 'NO_IMMEDIATE_PAYMENT',
      message: 'No immediate payment found',
    });
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/card/public',
      payload: {
        paymentId: paid.paymentId,
        consentId: paid.consentId,
        cardDetails,
        saveCard: false,
      },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('PAYMENT_ALREADY_MADE');
    expect(await ledgerKinds(ctx.database, paid.paymentId)).toEqual(['card_payment']);
  });

  it('needs a bearer token on /api/payments/card', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/payments/card',
      payload: { paymentId: consent.paymentId, cardDetails: {}, saveCard: false },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('a card envelope the server cannot take', () => {
  const charge = (
    consent: { paymentId: string; consentId: string },
    cardDetails: unknown,
    token?: string,
  ) =>
    ctx.app.inject({
      method: 'POST',
      url: token ? '/api/payments/card' : '/api/payments/card/public',
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
      payload: {
        paymentId: consent.paymentId,
        ...(token ? {} : { consentId: consent.consentId }),
        cardDetails,
        saveCard: false,
      },
    });

  it('names the field of a malformed envelope, signed in or not', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const card = await encryptedCard(ctx.app, sandboxCard('pin_only'));
    const { token } = await signUp(ctx.app, testPhone());
    const { iv: _iv, ...withoutIv } = card.encryptedCardNumber;
    const { encryptedCvv: _cvv, ...withoutCvv } = card;
    const malformed: Array<[unknown, string]> = [
      [
        { ...card, encryptedCardNumber: withoutIv },
        'cardDetails.encryptedCardNumber.iv: Invalid input: expected string, received undefined',
      ],
      [
        { ...card, encryptedPin: { ...card.encryptedPin, algorithm: 'RSA' } },
        'cardDetails.encryptedPin.algorithm: Invalid input: expected "RSA-OAEP+AES-GCM"',
      ],
      [withoutCvv, 'cardDetails.encryptedCvv: Invalid input: expected object, received undefined'],
    ];
    for (const [cardDetails, message] of malformed) {
      for (const who of [undefined, token]) {
        const refused = await charge(consent, cardDetails, who);
        expect([refused.statusCode, refused.json()]).toEqual([
          400,
          { success: false, error: { code: 'VALIDATION_FAILED', message } },
        ]);
      }
    }
  });

  it('answers a card for a retired key with its own 409, and the same card for the current key goes through', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const old = await encryptedCard(ctx.app, sandboxCard('pin_only'));
    await rotateCardKey(ctx.database.db, ctx.context.clock);
    await ctx.database.db
      .update(cardEncryptionKeys)
      .set({ retiresAt: new Date(ctx.context.clock.now().getTime() - 1) })
      .where(eq(cardEncryptionKeys.keyId, old.encryptedCardNumber.keyId));

    const retired = await charge(consent, old);
    expect([retired.statusCode, retired.json()]).toEqual([
      409,
      {
        success: false,
        error: {
          code: 'ENCRYPTION_KEY_RETIRED',
          message:
            'Card details were encrypted with a key that is no longer used. Please enter them again.',
        },
      },
    ]);

    const again = await charge(consent, await encryptedCard(ctx.app, sandboxCard('pin_only')));
    expect(keepPageToken(consent.paymentId, again).statusCode).toBe(200);
    expect(await paymentStatus(consent)).toMatchObject({ status: 'completed' });
  });

  it('answers a tampered envelope for the current key as unreadable, not retired', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const card = await encryptedCard(ctx.app, sandboxCard('pin_only'));
    const bytes = Buffer.from(card.encryptedCvv.encryptedData, 'base64');
    bytes[0] = (bytes[0] ?? 0) ^ 0x01;
    const tampered: TEncryptedCard = {
      ...card,
      encryptedCvv: { ...card.encryptedCvv, encryptedData: bytes.toString('base64') },
    };
    const refused = await charge(consent, tampered);
    expect([refused.statusCode, refused.json().error.code]).toEqual([
      400,
      'CARD_DETAILS_UNREADABLE',
    ]);
    expect(await paymentStatus(consent)).toMatchObject({
      status: expect.not.stringMatching(/completed/),
    });
  });
});

describe('concurrent charges', () => {
  it(
    '1,000 identical requests with one Idempotency-Key make one charge; each gets its answer or 409 PAYMENT_IN_PROGRESS, and a retry its answer',
    { tags: ['postgres'], timeout: 600_000 },
    async () => {
      const consent = await consentWithPayment(ctx.app, ctx.database);
      const cardDetails = await encryptedCard(ctx.app, sandboxCard('pin_only'));
      const payload = {
        paymentId: consent.paymentId,
        consentId: consent.consentId,
        cardDetails,
        saveCard: false,
      };
      const send = () =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/payments/card/public',
          headers: { 'idempotency-key': `order-1042-${consent.paymentId}` },
          payload,
        });
      const answers = await Promise.all(Array.from({ length: 1_000 }, send));
      // The first runs the charge; the others wait for its answer up to 30 s (docs/payments.md
      // "Idempotency"), and past that are told it is still running, with nothing charged: which
      // of the two each gets depends on the machine's speed, never a second charge.
      const charged = answers.filter((a) => a.statusCode === 200);
      const waiting = answers.filter((a) => a.statusCode !== 200);
      expect(charged.length).toBeGreaterThanOrEqual(1);
      expect(new Set(waiting.map((a) => `${a.statusCode} ${a.json().error?.code}`))).toEqual(
        new Set(waiting.length > 0 ? ['409 PAYMENT_IN_PROGRESS'] : []),
      );
      const references = new Set(charged.map((a) => a.json().transactionReference));
      expect(references.size).toBe(1);
      // A retry once it ended gets that answer, charged nothing again.
      const retry = await send();
      expect(retry.statusCode).toBe(200);
      expect(retry.json().transactionReference).toBe([...references][0]);
      expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
    },
  );

  it('the same key with another body is refused (409 IDEMPOTENCY_KEY_REUSED)', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const cardDetails = await encryptedCard(ctx.app, sandboxCard('declined'));
    const send = (saveCard: boolean) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/payments/card/public',
        headers: { 'idempotency-key': `k-${consent.paymentId}` },
        payload: {
          paymentId: consent.paymentId,
          consentId: consent.consentId,
          cardDetails,
          saveCard,
        },
      });
    const first = await send(false);
    expect(first.statusCode).toBe(402);
    const replay = await send(false);
    expect(replay.statusCode).toBe(402);
    expect(replay.json()).toEqual(first.json());
    // Replayed, not charged again: one failed attempt.
    expect((await paymentEvents(ctx.database, consent.paymentId)).map((e) => e.status)).toEqual([
      'in_progress',
      'failed',
    ]);
    const reused = await send(true);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it(
    '20 different charges of one payment at once: it is paid once, the rest are refused',
    { tags: ['postgres'] },
    async () => {
      const consent = await consentWithPayment(ctx.app, ctx.database);
      const bodies = await Promise.all(
        Array.from({ length: 20 }, async () => ({
          paymentId: consent.paymentId,
          consentId: consent.consentId,
          cardDetails: await encryptedCard(ctx.app, sandboxCard('pin_only')),
          saveCard: false,
        })),
      );
      const answers = await Promise.all(
        bodies.map((payload) =>
          ctx.app.inject({ method: 'POST', url: '/api/payments/card/public', payload }),
        ),
      );
      const ok = answers.filter((a) => a.statusCode === 200);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      for (const refused of answers.filter((a) => a.statusCode !== 200)) {
        expect(refused.statusCode).toBe(409);
        expect(['PAYMENT_IN_PROGRESS', 'PAYMENT_ALREADY_MADE']).toContain(
          refused.json().error.code,
        );
      }
      // Charges that raced past the first one's completion are refunded, never kept.
      const kinds = await ledgerKinds(ctx.database, consent.paymentId);
      expect(
        kinds.filter((k) => k === 'card_payment').length -
          kinds.filter((k) => k === 'card_refund').length,
      ).toBe(1);
    },
  );
});

describe('after a crash', () => {
  it(
    'a charge left behind by a dead process is asked about (never taken: failed, closed) and an Idempotency-Key gives way after five minutes',
    { tags: ['postgres'] },
    async () => {
      const consent = await consentWithPayment(ctx.app, ctx.database);
      const longAgo = new Date(Date.now() - 6 * 60 * 1_000);
      const key = `order-crash-${consent.paymentId}`;
      const body = {
        paymentId: consent.paymentId,
        cardDetails: await encryptedCard(ctx.app, sandboxCard('pin_only')),
        saveCard: false,
      };
      // What a process that died while the network thought leaves: a charging attempt and a key
      // claimed but never settled.
      await ctx.database.db.insert(paymentAttempts).values({
        id: `att_crashed_${consent.paymentId}`,
        paymentId: consent.paymentId,
        consentId: consent.consentId,
        method: 'card',
        status: 'in_progress',
        stage: 'charging',
        amount: consent.amount,
        provider: 'sandbox',
        createdAt: longAgo,
        updatedAt: longAgo,
      });
      await ctx.database.db.insert(idempotencyKeys).values({
        scope: `payments.card:consent:${consent.consentId}`,
        key,
        fingerprint: fingerprintOf(body),
        response: {},
        state: 'in_flight',
        createdAt: longAgo,
      });
      const retry = await ctx.app.inject({
        method: 'POST',
        url: '/api/payments/card/public',
        headers: { 'idempotency-key': key },
        payload: { ...body, consentId: consent.consentId },
      });
      expect(retry.statusCode).toBe(200);
      expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
      const [crashed] = await ctx.database.db
        .select()
        .from(paymentAttempts)
        .where(eq(paymentAttempts.id, `att_crashed_${consent.paymentId}`));
      // The network never had it: the requery closed its reference, and the retry charged anew.
      expect(crashed).toMatchObject({ status: 'failed', failureReason: 'expired' });
    },
  );

  it('a charge still within its time keeps the payment busy (409)', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    await ctx.database.db.insert(paymentAttempts).values({
      id: `att_busy_${consent.paymentId}`,
      paymentId: consent.paymentId,
      consentId: consent.consentId,
      method: 'card',
      status: 'in_progress',
      stage: 'charging',
      amount: consent.amount,
      provider: 'sandbox',
    });
    const second = await payByCard(ctx.app, consent);
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('PAYMENT_IN_PROGRESS');
  });
});

describe('the books after every card path', () => {
  it('balance: every transaction sums to zero and every paid payment is booked once', async () => {
    const report = await checkLedger(ctx.database.db);
    expect(report.transactions).toBeGreaterThan(5);
    expect(report).toMatchObject({
      unbalanced: [],
      balanceMismatches: [],
      paymentsNotBookedOnce: [],
      total: 0,
    });
  });
});
