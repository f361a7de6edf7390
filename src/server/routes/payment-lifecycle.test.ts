import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { paymentAttempts } from '../db/schema';
import { moveAttempt } from '../services/payments/attempts/moves';
import { useTestApp, testClock } from '../testing/test-app';
import {
  consentWithPayment,
  encryptedCard,
  keepPageToken,
  ledgerKinds,
  pageQuery,
  payByCard,
  paymentEvents,
  sandboxCard,
} from '../testing/payments';
import { THREE_DS_CHALLENGE_MS } from '../../domain/payment-attempts';
import { usable } from '../providers/off';

/*
 * The payment attempt's lifecycle on the server (docs/payments.md "States"): every move checked
 * against the one table, and each edge the payer's page must hear of.
 */

const clock = testClock('2027-03-02T10:00:00Z');
const ctx = useTestApp({ clock });

type TConsent = Awaited<ReturnType<typeof consentWithPayment>>;

async function openTransfer(consent: TConsent) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: `/api/payments/${consent.paymentId}/transfer?consentId=${consent.consentId}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return keepPageToken(consent.paymentId, response).json<{
    transferDetails: { accountNumber: string; expiresAt: string };
  }>().transferDetails;
}

async function attemptsOf(paymentId: string) {
  return ctx.database.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.paymentId, paymentId));
}

describe('moving an attempt', () => {
  it('refuses a move the table does not allow, and changes nothing', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    await openTransfer(consent);
    const [before] = await attemptsOf(consent.paymentId);
    if (!before) throw new Error('no attempt');
    clock.advance(1_000);
    // An open one-time account never waits for an OTP, nor is taken for an answer.
    for (const edge of ['askOtp', 'ask3ds', 'takeAnswer', 'fail'] as const) {
      const moved = await moveAttempt(
        ctx.database.db,
        before.id,
        edge,
        { failureCode: 'PAYMENT_FAILED', stepText: 'moved' },
        clock.now(),
      );
      expect(moved, edge).toBeNull();
    }
    expect(await attemptsOf(consent.paymentId)).toEqual([before]);
    expect(await paymentEvents(ctx.database, consent.paymentId)).toEqual([]);
  });

  it('moves along an allowed edge, and an ended attempt no further', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    await openTransfer(consent);
    const [open] = await attemptsOf(consent.paymentId);
    if (!open) throw new Error('no attempt');
    const db = ctx.database.db;
    const ended = await moveAttempt(db, open.id, 'abandon', { failureReason: 'x' }, clock.now());
    expect(ended).toMatchObject({ status: 'failed', stage: null, failureReason: 'x' });
    const [after] = await attemptsOf(consent.paymentId);
    for (const edge of ['complete', 'abandon', 'claimTransfer', 'paidOtherwise'] as const) {
      expect(await moveAttempt(db, open.id, edge, {}, clock.now()), edge).toBeNull();
    }
    expect(await attemptsOf(consent.paymentId)).toEqual([after]);
  });
});

const reconcile = () => ctx.app.reconciler.runDue();

async function read(consent: TConsent) {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/payments/${consent.paymentId}?${pageQuery(consent)}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{
    status: string;
    transferDetails: unknown;
    attempt: Record<string, unknown> | null;
  }>();
}

/** A payer without sign-in starts the 3-D Secure card: the challenge and the charge's token. */
async function startThreeDs(consent: TConsent) {
  const started = await payByCard(ctx.app, consent, 'three_ds');
  expect(started.statusCode, started.body).toBe(200);
  return started.json<{ challengeUrl: string; chargeToken: string }>();
}

const cancel = (consent: TConsent, chargeToken?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/payments/${consent.paymentId}/attempts/current/cancel`,
    payload: { consentId: consent.consentId, ...(chargeToken ? { chargeToken } : {}) },
  });

describe('a 3-D Secure check', () => {
  it('is shown with its challenge and end, and ends failed when unanswered for 10 minutes', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const started = await startThreeDs(consent);
    const end = new Date(clock.now().getTime() + THREE_DS_CHALLENGE_MS).toISOString();
    expect((await read(consent)).attempt).toMatchObject({
      state: 'awaiting_3ds',
      challengeUrl: started.challengeUrl,
      expiresAt: end,
    });
    clock.advance(THREE_DS_CHALLENGE_MS - 60_000);
    await reconcile();
    expect((await read(consent)).attempt).toMatchObject({ state: 'awaiting_3ds' });
    clock.advance(61_000);
    expect(await reconcile()).toMatchObject({ challengesEnded: 1 });
    const failed = {
      state: 'failed',
      failureCode: 'THREE_DS_FAILED',
      message: '3DS authentication failed',
      challengeUrl: null,
      charged: false,
    };
    expect(await read(consent)).toMatchObject({ status: 'failed', attempt: failed });
    expect((await paymentEvents(ctx.database, consent.paymentId)).at(-1)).toMatchObject({
      status: 'failed',
      message: '3DS authentication failed',
      attempt: failed,
    });
    // The payer chooses again: another card pays.
    expect((await payByCard(ctx.app, consent)).statusCode).toBe(200);
  });

  it('is cancelled by the page that started it, and only by it', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const started = await startThreeDs(consent);
    const stranger = await cancel(consent);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toMatchObject({ error: { code: 'NO_THREE_DS_CHALLENGE' } });
    const cancelled = await cancel(consent, started.chargeToken);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({
      success: true,
      attempt: { state: 'failed', failureCode: 'THREE_DS_FAILED', charged: false },
    });
    expect((await read(consent)).attempt).toMatchObject({ state: 'failed' });
    expect((await cancel(consent, started.chargeToken)).statusCode).toBe(404);
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([]);
  });

  it('asks the bank before cancelling: a check approved meanwhile pays the payment', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const started = await startThreeDs(consent);
    const reference = decodeURIComponent(started.challengeUrl.split('/').at(-1) ?? '');
    // The issuer has the payer's approval; its answer never reached us.
    await ctx.context.sandbox?.cards.resolveThreeDs(reference, true);
    const cancelled = await cancel(consent, started.chargeToken);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ attempt: { state: 'completed' } });
    expect(await read(consent)).toMatchObject({ status: 'completed' });
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual(['card_payment']);
  });
  it('whose bank does not answer the question is not ended on a guess: still charging, never an error', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    const started = await startThreeDs(consent);
    const requery = vi
      .spyOn(usable(ctx.context.providers.payments.cards), 'requeryCardCharge')
      .mockRejectedValueOnce(new Error('connection reset'));
    const cancelled = await cancel(consent, started.chargeToken);
    expect(requery).toHaveBeenCalledTimes(1);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ success: true, attempt: { state: 'charging' } });
    // Left for the reconciler, which asks again about its reference.
    expect((await read(consent)).attempt).toMatchObject({ state: 'charging' });
    expect(await ledgerKinds(ctx.database, consent.paymentId)).toEqual([]);
  });
});

describe('a one-time account', () => {
  it('that expires unused ends its attempt, and the payer hears it', async () => {
    const consent = await consentWithPayment(ctx.app, ctx.database);
    await openTransfer(consent);
    clock.advance(30 * 60_000 + 1_000);
    // This one, and any other test's account left open.
    expect((await reconcile()).transferAccountsExpired).toBeGreaterThanOrEqual(1);
    const expired = {
      state: 'failed',
      failureCode: 'TRANSFER_ACCOUNT_EXPIRED',
      expiresAt: null,
      returned: null,
    };
    expect(await read(consent)).toMatchObject({ transferDetails: null, attempt: expired });
    expect((await paymentEvents(ctx.database, consent.paymentId)).at(-1)).toMatchObject({
      status: 'failed',
      attempt: expired,
    });
  });
});

describe('a card whose bank is slow to answer', () => {
  // The network gives up on the 'timeout' card after 1.5 s; the payer is answered after 50 ms.
  const slow = useTestApp({
    clock,
    env: { CARD_ANSWER_WAIT_MS: '50', SANDBOX_CARD_TIMEOUT_MS: '1500' },
  });

  const payWith = async (consent: TConsent, scenario: 'timeout' | 'pin_only') =>
    keepPageToken(
      consent.paymentId,
      await slow.app.inject({
        method: 'POST',
        url: '/api/payments/card/public',
        payload: {
          paymentId: consent.paymentId,
          consentId: consent.consentId,
          cardDetails: await encryptedCard(slow.app, sandboxCard(scenario)),
          saveCard: false,
        },
      }),
    );

  it('answers that the bank is still answering, then that nothing was charged; a second card waits only meanwhile', async () => {
    const consent = await consentWithPayment(slow.app, slow.database);
    const first = await payWith(consent, 'timeout');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ success: true, status: 'charging' });
    const readSlow = async () =>
      (
        await slow.app.inject({
          method: 'GET',
          url: `/api/payments/${consent.paymentId}?${pageQuery(consent)}`,
        })
      ).json<{ attempt: Record<string, unknown> }>();
    expect((await readSlow()).attempt).toMatchObject({ state: 'charging' });
    const second = await payWith(consent, 'pin_only');
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ error: { code: 'PAYMENT_IN_PROGRESS' } });
    // The network's late answer ends the charge, and the payer hears nothing was charged.
    await expect
      .poll(async () => (await readSlow()).attempt.state, { timeout: 60_000, interval: 100 })
      .toBe('failed');
    expect((await readSlow()).attempt).toMatchObject({
      failureCode: 'CARD_BANK_NO_ANSWER',
      message: 'Your bank did not answer. Nothing was charged.',
      charged: false,
    });
    expect((await paymentEvents(slow.database, consent.paymentId)).at(-1)).toMatchObject({
      status: 'failed',
      message: 'Your bank did not answer. Nothing was charged.',
    });
    const again = await payWith(consent, 'pin_only');
    expect(again.statusCode, again.body).toBe(200);
    // Answered paid, or (past the 50 ms this app waits, on a loaded machine) charging, then paid.
    await expect
      .poll(() => ledgerKinds(slow.database, consent.paymentId))
      .toEqual(['card_payment']);
  });
});
