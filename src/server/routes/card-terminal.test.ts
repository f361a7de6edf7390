// The chip-card terminal's acquirer calls (spec §7 card-terminal/raven; docs/terminal.md), every
// path: a registered reader's keys and an unknown one; a purchase approved, declined for funds,
// a wrong PIN or by the issuer, a cryptogram field changed after the card signed, a track 2 that
// disagrees with the card number, a replayed rrn and a reused one, an unknown reader, a
// stripe-only card, an amount out of range, malformed data; two purchases of one payment at once.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  ZChipPurchaseResponse,
  ZTerminalFetchKeysResponse,
} from '../../domain/schemas/card-terminal';
import { paymentAttempts, terminalPurchases } from '../db/schema';
import { DEFAULT_RATE_LIMITS } from '../rate-limits';
import { checkLedger } from '../services/payments/ledger';
import { useTestApp } from '../testing/test-app';
import { signUp, testPhone } from '../testing/identity';
import {
  consentWithPayment,
  keepPageToken,
  ledgerKinds,
  pageQuery,
  paymentEvents,
} from '../testing/payments';
import {
  chipCard,
  chipPurchase,
  freshAddress,
  readChipCard,
  sandboxReader,
  withIccValue,
  withoutIccTag,
} from '../testing/terminal';
import type { TChipCardScenario } from '../sandbox/fixtures';

const ctx = useTestApp({
  // The real limit of terminal calls per address: one test counts up to it.
  rateLimits: { terminalCallsPerAddress: DEFAULT_RATE_LIMITS.terminalCallsPerAddress },
});

const DECLINED = 'Transaction declined by card or issuer';
const INVALID_FORMAT = 'Invalid transaction format. Please reset the device and try again.';
const INVALID_PARAMETERS =
  'Invalid transaction parameters. Please try again with a different amount or reset the device.';

/** A consent's payment and the reader's data for it, read from the card of `scenario`. */
async function readFor(
  scenario: TChipCardScenario,
  options: { pin?: string; amount?: number; readAmount?: number; requiresAuth?: boolean } = {},
) {
  const consent = await consentWithPayment(ctx.app, ctx.database, {
    ...(options.amount === undefined ? {} : { amount: options.amount }),
    ...(options.requiresAuth === undefined ? {} : { requiresAuth: options.requiresAuth }),
  });
  const read = await readChipCard(
    ctx.app,
    scenario,
    options.readAmount ?? consent.amount,
    options.pin,
  );
  const body = { ...read, paymentId: consent.paymentId, consentId: consent.consentId };
  return { consent, read, body };
}

const errorOf = (code: string, message: string) => ({ success: false, error: { code, message } });

/**
 * The payment's status as the page that made the purchase reads it (with its token): 'none' when
 * it finds no payment, as after a purchase refused at once, which gives its page no token.
 */
async function paymentStatus(consent: { paymentId: string; consentId: string }) {
  const state = await ctx.app.inject({
    url: `/api/payments/${consent.paymentId}?${pageQuery(consent)}`,
  });
  return state.statusCode === 404 ? 'none' : state.json<{ status: string }>().status;
}

/** The same time of day, a day later, as the reader writes it (UTC). */
const nextDay = (iso: string) =>
  new Date(Date.parse(iso) + 24 * 60 * 60 * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('POST /api/card-terminal/raven/fetch-keys', () => {
  const fetchKeys = (payload: unknown, remoteAddress = freshAddress()) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/card-terminal/raven/fetch-keys',
      payload: payload as Record<string, unknown>,
      remoteAddress,
    });

  it("answers a registered reader's terminal and merchant ids in the spec's shape", async () => {
    const reader = sandboxReader();
    const response = await fetchKeys({ serial: reader.serial });
    expect(response.statusCode).toBe(200);
    expect(ZTerminalFetchKeysResponse.parse(response.json())).toEqual(response.json());
    expect(response.json()).toEqual({
      status: true,
      data: { status: true, data: { tid: reader.tid, mid: reader.mid, serial: reader.serial } },
      message: 'Terminal keys fetched',
    });
  });

  it('refuses an unknown serial with the catalogue message, and a malformed one', async () => {
    const unknown = await fetchKeys({ serial: 'QP5NOTREGISTERED' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(
      errorOf(
        'TERMINAL_READER_UNKNOWN',
        'This card reader is not registered. Check its serial number or use another reader.',
      ),
    );
    const malformed = await fetchKeys({ serial: 'a b' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('VALIDATION_FAILED');
  });

  it('counts calls per address: past 60 a minute the catalogue 429', async () => {
    const address = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 61; i += 1) {
      statuses.push((await fetchKeys({ serial: sandboxReader().serial }, address)).statusCode);
    }
    expect(statuses.slice(0, 60).every((status) => status === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
  });
});

describe('POST /api/card-terminal/raven/chip-purchase, each path', () => {
  it('approved (00): paid once, with the card masked, the ledger, and the stream', async () => {
    const { consent, body } = await readFor('chip_approved');
    const response = keepPageToken(consent.paymentId, await chipPurchase(ctx.app, body));
    expect(response.statusCode).toBe(200);
    const card = chipCard('chip_approved');
    const maskedPan = `${card.number.slice(0, 6)}******${card.number.slice(-4)}`;
    expect(ZChipPurchaseResponse.parse(response.json())).toEqual(response.json());
    expect(response.json()).toEqual({
      status: true,
      data: {
        responseCode: '00',
        approved: true,
        rrn: body.rrn,
        authCode: expect.stringMatching(/^\d{6}$/),
        paymentId: consent.paymentId,
        amount: consent.amount,
        maskedPan,
      },
      message: 'Transaction approved',
      chargeToken: expect.stringMatching(/^cht_/),
    });
    expect(await paymentStatus(consent)).toBe('completed');
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['chip_card_payment']);
    expect(await paymentEvents(ctx.database, consent.paymentId)).toEqual([
      {
        type: 'payment_status',
        paymentId: consent.paymentId,
        status: 'in_progress',
        attempt: expect.objectContaining({ method: 'chip_card', state: 'charging' }),
      },
      expect.objectContaining({
        status: 'completed',
        eventType: 'payment_success',
        paymentType: 'chip_card',
        payerCard: { obfuscatedCard: maskedPan, brand: 'mastercard' },
        shouldPromptCardLinking: false,
      }),
    ]);
    const [kept] = await ctx.database.db
      .select()
      .from(terminalPurchases)
      .where(eq(terminalPurchases.rrn, body.rrn));
    expect(kept).toMatchObject({
      maskedPan,
      responseCode: '00',
      paymentId: consent.paymentId,
      serial: body.serial,
      tid: body.tid,
      amount: consent.amount,
    });
  });

  it.each([
    ['chip_insufficient_funds', undefined, `${DECLINED}: Insufficient funds`, 'insufficient_funds'],
    ['chip_approved', '9999', `${DECLINED}: Incorrect PIN`, 'incorrect_pin'],
    ['chip_declined', undefined, DECLINED, 'declined'],
  ] as const)(
    '%s (PIN %s): 402 "%s", the attempt failed and nothing booked',
    async (scenario, pin, message, reason) => {
      const { consent, body } = await readFor(scenario, pin ? { pin } : {});
      const response = await chipPurchase(ctx.app, body);
      expect(response.statusCode).toBe(402);
      expect(response.json()).toEqual(errorOf('TERMINAL_DECLINED', message));
      expect(await paymentStatus(consent)).toBe('none');
      expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([]);
      const events = await paymentEvents(ctx.database, consent.paymentId);
      expect(events.at(-1)).toMatchObject({ status: 'failed', message });
      const [attempt] = await ctx.database.db
        .select()
        .from(paymentAttempts)
        .where(eq(paymentAttempts.paymentId, consent.paymentId));
      expect(attempt).toMatchObject({
        method: 'chip_card',
        status: 'failed',
        failureCode: 'TERMINAL_DECLINED',
        failureReason: reason,
      });
    },
  );

  it('a wrong PIN can be followed by the right one: a new read pays the payment', async () => {
    const { consent, body } = await readFor('chip_approved', { pin: '0000' });
    expect((await chipPurchase(ctx.app, body)).statusCode).toBe(402);
    const again = await readChipCard(ctx.app, 'chip_approved', consent.amount);
    const paid = await chipPurchase(ctx.app, {
      ...again,
      paymentId: consent.paymentId,
      consentId: consent.consentId,
    });
    expect(paid.statusCode).toBe(200);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['chip_card_payment']);
  });

  it.each([
    ['9F37', 'unpredictable number', '00000000'],
    ['9F36', 'transaction counter', 'FFFF'],
    ['95', 'terminal verification results', '8000000000'],
    ['82', 'interchange profile', '0000'],
    ['9A', 'transaction date', '200101'],
    ['9F26', 'cryptogram itself', '0000000000000000'],
  ])(
    'a cryptogram field changed after the card signed (%s, %s) is declined by the issuer',
    async (tag, _name, value) => {
      const { consent, body } = await readFor('chip_approved');
      const response = await chipPurchase(ctx.app, {
        ...body,
        icc_data: withIccValue(body.icc_data, tag, value),
        // A changed date is changed in the reader's date-time too, which must agree with 9A:
        // the cryptogram is what then refuses it.
        ...(tag === '9A' ? { trans_datetime: '2020-01-01T12:00:00Z' } : {}),
      });
      expect(response.statusCode).toBe(402);
      expect(response.json()).toEqual(errorOf('TERMINAL_DECLINED', DECLINED));
      expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([]);
    },
  );

  it('an amount raised after the card signed a smaller one is declined, though it matches the payment', async () => {
    const { consent, body } = await readFor('chip_approved', { readAmount: 100 });
    const amount = consent.amount;
    const response = await chipPurchase(ctx.app, {
      ...body,
      amount,
      icc_data: withIccValue(body.icc_data, '9F02', String(amount).padStart(12, '0')),
    });
    expect(response.statusCode).toBe(402);
    expect(response.json()).toEqual(errorOf('TERMINAL_DECLINED', DECLINED));
    expect(await paymentStatus(consent)).toBe('none');
  });

  it('refuses a track 2 that disagrees with the card number or the expiry, recording nothing', async () => {
    const { consent, body } = await readFor('chip_approved');
    const other = chipCard('chip_declined').number;
    for (const change of [
      { track2: body.track2.replace(body.pan, other) },
      { pan: other },
      { expirydate: '2912' },
    ]) {
      const response = await chipPurchase(ctx.app, { ...body, ...change, rrn: newRrn() });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(errorOf('TERMINAL_INVALID_FORMAT', INVALID_FORMAT));
    }
    expect(await paymentEvents(ctx.database, consent.paymentId)).toEqual([]);
  });

  it('a replayed rrn gets the first answer and books nothing more; another purchase on it is 409', async () => {
    const { consent, body } = await readFor('chip_approved');
    const first = await chipPurchase(ctx.app, body);
    expect(first.statusCode).toBe(200);
    const replay = await chipPurchase(ctx.app, body);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(first.json());
    const events = await paymentEvents(ctx.database, consent.paymentId);
    expect(events).toHaveLength(2);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['chip_card_payment']);

    const reused = await chipPurchase(ctx.app, { ...body, amount: body.amount + 1 });
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toEqual(
      errorOf(
        'TERMINAL_RRN_REUSED',
        'This transaction reference was already used. Please reset the device and try again.',
      ),
    );
    // A declined purchase's rrn is spent too: its replay answers the same decline.
    const declined = await readFor('chip_declined');
    const refused = await chipPurchase(ctx.app, declined.body);
    expect((await chipPurchase(ctx.app, declined.body)).json()).toEqual(refused.json());
    expect(await paymentEvents(ctx.database, declined.consent.paymentId)).toHaveLength(2);
  });

  it('the same purchase sent twice at once is made once', { tags: ['postgres'] }, async () => {
    const { consent, body } = await readFor('chip_approved');
    const [a, b] = await Promise.all([chipPurchase(ctx.app, body), chipPurchase(ctx.app, body)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json()).toEqual(b.json());
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['chip_card_payment']);
  });

  it('refuses a reader that is not registered, or ids that are not its own', async () => {
    const { body } = await readFor('chip_approved');
    const message =
      'This card reader is not registered. Check its serial number or use another reader.';
    for (const change of [
      { serial: 'QP5UNKNOWN01' },
      { tid: '2SBX9999' },
      { mid: 'OTHERMERCHANT' },
    ]) {
      const response = await chipPurchase(ctx.app, { ...body, ...change, rrn: newRrn() });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(errorOf('TERMINAL_READER_UNKNOWN', message));
    }
  });

  it("asks for the chip when track 2's service code says the card has none", async () => {
    const { body } = await readFor('chip_approved');
    const stripe = chipCard('magstripe_only');
    const expiry = `${stripe.expiry.slice(3)}${stripe.expiry.slice(0, 2)}`;
    for (const change of [
      // The stripe-only card as a reader that fell back to the stripe would send it.
      { pan: stripe.number, expirydate: expiry, track2: `${stripe.number}D${expiry}10100000000` },
      // A chip card's track 2 with its service code changed to 'stripe only'.
      { track2: body.track2.replace(/D(\d{4})\d{3}/, 'D$1101') },
    ]) {
      const response = await chipPurchase(ctx.app, { ...body, ...change, rrn: newRrn() });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(
        errorOf('TERMINAL_CHIP_REQUIRED', 'Please use chip card insertion'),
      );
    }
  });

  it('refuses an amount out of range, and one that is not the chip’s or the payment’s', async () => {
    const big = await readFor('chip_approved', { amount: 1_000_000_001 });
    const tooBig = await chipPurchase(ctx.app, big.body);
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json()).toEqual(
      errorOf(
        'TERMINAL_AMOUNT_OUT_OF_RANGE',
        'Transaction amount is out of range. Please use a smaller amount.',
      ),
    );
    const { body } = await readFor('chip_approved');
    for (const change of [
      { amount: 0 },
      { amount: -5 },
      { amount: body.amount + 100 },
      { icc_data: withIccValue(body.icc_data, '5F2A', '0566') },
      { icc_data: withIccValue(body.icc_data, '9C', '00') },
      // The reader's date and time on another day than the chip's transaction date (9A).
      { trans_datetime: nextDay(body.trans_datetime) },
    ]) {
      const response = await chipPurchase(ctx.app, { ...body, ...change, rrn: newRrn() });
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json()).toEqual(errorOf('TERMINAL_INVALID_PARAMETERS', INVALID_PARAMETERS));
    }
    const other = await readFor('chip_approved', { readAmount: 100 });
    const notThePayment = await chipPurchase(ctx.app, other.body);
    expect(notThePayment.json()).toEqual(
      errorOf('TERMINAL_INVALID_PARAMETERS', INVALID_PARAMETERS),
    );
  });

  it('answers malformed data with the terminal’s format message, never a 500', async () => {
    const { consent, body } = await readFor('chip_approved');
    const { paymentId: _paymentId, ...withoutPayment } = body;
    for (const change of [
      { icc_data: '9F2608AA' },
      { icc_data: 'ZZ' },
      { icc_data: withoutIccTag(body.icc_data, '9F27') },
      { icc_data: `${body.icc_data}9F2701` },
      { track2: '1234567890123456789012' },
      { pin_block: 'not a pin block' },
      { rrn: '12345' },
      { amount: 1.5 },
      { amount: '250000' },
      { trans_datetime: 'yesterday' },
      { serial: null },
    ]) {
      const response = await chipPurchase(ctx.app, { ...body, rrn: newRrn(), ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json()).toEqual(errorOf('TERMINAL_INVALID_FORMAT', INVALID_FORMAT));
    }
    const missing = await chipPurchase(ctx.app, withoutPayment);
    expect(missing.json()).toEqual(errorOf('TERMINAL_INVALID_FORMAT', INVALID_FORMAT));
    // A PIN block under another key reaches the acquirer, which cannot read it (30).
    const otherKey = await chipPurchase(ctx.app, {
      ...body,
      rrn: newRrn(),
      pin_block: '0123456789ABCDEF',
    });
    expect(otherKey.statusCode).toBe(400);
    expect(otherKey.json()).toEqual(errorOf('TERMINAL_INVALID_FORMAT', INVALID_FORMAT));
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([]);
  });
});

describe('who may make a chip purchase, and when', () => {
  it('the consent link pays a consent that needs no sign-in; a consent that does needs the payer', async () => {
    const { consent, body } = await readFor('chip_approved', { requiresAuth: true });
    const anonymous = await chipPurchase(ctx.app, body);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('SIGN_IN_REQUIRED');
    const { consentId: _consentId, ...bearerBody } = body;
    const noOne = await chipPurchase(ctx.app, { ...bearerBody, rrn: newRrn() });
    expect(noOne.json().error.code).toBe('SIGN_IN_REQUIRED');
    const payer = await signUp(ctx.app, testPhone());
    const again = await readChipCard(ctx.app, 'chip_approved', consent.amount);
    const signedIn = await chipPurchase(
      ctx.app,
      { ...again, paymentId: consent.paymentId },
      { authorization: `Bearer ${payer.token}` },
    );
    expect(signedIn.statusCode).toBe(200);
  });

  it("another consent's link cannot pay this payment (404), and a paid payment is refused (409)", async () => {
    const { consent, body } = await readFor('chip_approved');
    const other = await consentWithPayment(ctx.app, ctx.database);
    const wrongLink = await chipPurchase(ctx.app, { ...body, consentId: other.consentId });
    expect(wrongLink.statusCode).toBe(404);
    expect(wrongLink.json().error.code).toBe('NO_IMMEDIATE_PAYMENT');
    expect((await chipPurchase(ctx.app, { ...body, rrn: newRrn() })).statusCode).toBe(200);
    const again = await readChipCard(ctx.app, 'chip_approved', consent.amount);
    const paidAlready = await chipPurchase(ctx.app, {
      ...again,
      paymentId: consent.paymentId,
      consentId: consent.consentId,
    });
    expect(paidAlready.statusCode).toBe(409);
    expect(paidAlready.json().error.code).toBe('PAYMENT_ALREADY_MADE');
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['chip_card_payment']);
  });

  it(
    'two purchases of one payment at once: exactly one books it',
    { tags: ['postgres'] },
    async () => {
      for (let round = 0; round < 4; round += 1) {
        const consent = await consentWithPayment(ctx.app, ctx.database);
        const reads = await Promise.all([
          readChipCard(ctx.app, 'chip_approved', consent.amount),
          readChipCard(ctx.app, 'chip_approved', consent.amount),
        ]);
        const answers = await Promise.all(
          reads.map((read) =>
            chipPurchase(ctx.app, {
              ...read,
              paymentId: consent.paymentId,
              consentId: consent.consentId,
            }),
          ),
        );
        const statuses = answers.map((a) => a.statusCode).sort();
        expect(statuses).toEqual([200, 409]);
        const refused = answers.find((a) => a.statusCode === 409);
        expect(['PAYMENT_IN_PROGRESS', 'PAYMENT_ALREADY_MADE']).toContain(
          refused?.json().error.code,
        );
        expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['chip_card_payment']);
      }
    },
  );
});

describe('the books after every chip path', () => {
  it('balance: every transaction sums to zero and every paid payment is booked once', async () => {
    const report = await checkLedger(ctx.database.db);
    expect(report).toMatchObject({
      unbalanced: [],
      balanceMismatches: [],
      paymentsNotBookedOnce: [],
      total: 0,
    });
  });
});

let rrnSeq = 0;
/** An rrn no read of this run made (reads draw theirs at random; these start with 9). */
function newRrn() {
  rrnSeq += 1;
  return `9${String(Date.now() % 1e6).padStart(6, '0')}${String(rrnSeq).padStart(5, '0')}`;
}
