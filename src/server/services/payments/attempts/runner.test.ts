// The attempt runner every way of paying uses (runner.ts), with adapters of its own: a
// call that threw leaves the attempt 'charging' for the reconciler; a refusal ends it failed with
// its event; money taken is booked once, however often its answer is recorded.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import type { TDb } from '../../../db/database';
import { cardPaymentTries, events, paymentAttempts, payments } from '../../../db/schema';
import {
  consentWithPayment,
  ledgerKinds,
  paymentEvents,
  sandboxCard,
} from '../../../testing/payments';
import { useTestApp, testClock } from '../../../testing/test-app';
import { AppError } from '../../../app-error';
import {
  openAttempt,
  paidWith,
  recordAnswer,
  runAttempt,
  type TAttemptAdapter,
  type TAttemptAnswer,
  type TAttemptOpening,
} from './runner';
import { attemptMove, cardStepEvent, moveAttemptTelling, type TAttemptRow } from './moves';
import { attemptViewOf } from '../attempt-view';
import { cardTryStep } from '../card-tries';
import { loadPayable } from '../payment-records';
import { settleCardCharge } from './settlements';
import type { TCardChargeOutcome } from '../../../providers/payments';
import { usable } from '../../../providers/off';

const clock = testClock(new Date());
const ctx = useTestApp({ clock, webhookDelivery: 'manual' });

type TResult = { ended: string };

/** A sandbox card that pays with its PIN, charged for the attempt. */
function chargeSandboxCard(attempt: TAttemptRow): Promise<TCardChargeOutcome> {
  const card = sandboxCard('pin_only');
  return usable(ctx.context.providers.payments.cards).chargeCard({
    reference: attempt.id,
    amount: attempt.amount,
    narration: 'Order #1042',
    card: { number: card.number, expiry: card.expiry, cvv: card.cvv, pin: card.pin },
  });
}

/** A card-like adapter for a new payment: its call and its reading of the answer are given. */
async function adapterFor(
  call: (attempt: TAttemptRow) => Promise<TCardChargeOutcome>,
  answer: (attempt: TAttemptRow, outcome: TCardChargeOutcome) => TAttemptAnswer<TResult>,
): Promise<{
  paymentId: string;
  adapter: TAttemptAdapter<TCardChargeOutcome, TResult> & { open: TAttemptOpening };
}> {
  const { paymentId, consentId } = await consentWithPayment(ctx.app, ctx.database);
  const payable = await loadPayable(ctx.context.db, paymentId, { consentId }, clock.now());
  return {
    paymentId,
    adapter: {
      open: { payable, fields: { method: 'card', provider: 'sandbox', payerId: null } },
      call,
      noAnswer: 'CARD_PAYMENT_PROCESSING_FAILED',
      answer: async (attempt, outcome) => answer(attempt, outcome),
    },
  };
}

async function attemptsOf(paymentId: string) {
  return ctx.database.db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.paymentId, paymentId));
}

describe('runAttempt', () => {
  it("a call that threw answers the adapter's code and leaves the attempt 'charging'", async () => {
    const { paymentId, adapter } = await adapterFor(
      () => Promise.reject(new Error('connection reset')),
      () => {
        throw new Error('no answer to read');
      },
    );
    const run = runAttempt(ctx.context, adapter);
    await expect(run).rejects.toMatchObject({ code: 'CARD_PAYMENT_PROCESSING_FAILED' });
    const [attempt] = await attemptsOf(paymentId);
    expect(attempt).toMatchObject({ status: 'in_progress', stage: 'charging', method: 'card' });
    expect((await paymentEvents(ctx.database, paymentId)).map((e) => e.status)).toEqual([
      'in_progress',
    ]);
    expect(await ledgerKinds(ctx.database, paymentId)).toEqual([]);
  });

  it("a call that threw answers the adapter's result when it gives one, still 'charging'", async () => {
    const { paymentId, adapter } = await adapterFor(
      () => Promise.reject(new Error('connection reset')),
      () => {
        throw new Error('no answer to read');
      },
    );
    const result = await runAttempt(ctx.context, {
      ...adapter,
      noAnswer: () => ({ ended: 'no_answer' }),
    });
    expect(result).toEqual({ ended: 'no_answer' });
    const [attempt] = await attemptsOf(paymentId);
    expect(attempt).toMatchObject({ status: 'in_progress', stage: 'charging' });
  });

  it('an answer read as failed ends the attempt failed, with its event, and throws it', async () => {
    const { paymentId, adapter } = await adapterFor(
      async (attempt) => ({
        kind: 'failed',
        providerReference: `ref-${attempt.id}`,
        card: null,
        reason: 'declined',
      }),
      (_attempt, outcome) => ({
        kind: 'fail',
        failure: new AppError('CARD_PAYMENT_FAILED'),
        reason: outcome.kind === 'failed' ? outcome.reason : 'unexpected',
        change: { providerReference: outcome.providerReference },
      }),
    );
    await expect(runAttempt(ctx.context, adapter)).rejects.toMatchObject({
      code: 'CARD_PAYMENT_FAILED',
    });
    const [attempt] = await attemptsOf(paymentId);
    expect(attempt).toMatchObject({
      status: 'failed',
      failureCode: 'CARD_PAYMENT_FAILED',
      failureReason: 'declined',
      providerReference: `ref-${attempt?.id}`,
    });
    const events = await paymentEvents(ctx.database, paymentId);
    expect(events.map((e) => e.status)).toEqual(['in_progress', 'failed']);
    expect(events[1]?.message).toBe(new AppError('CARD_PAYMENT_FAILED').message);
    const [payment] = await ctx.database.db
      .select({ status: payments.status })
      .from(payments)
      .where(eq(payments.id, paymentId));
    expect(payment?.status).toBe('pending');
    expect(await ledgerKinds(ctx.database, paymentId)).toEqual([]);
  });

  it("an owner's attempt opens and ends as its owner says, not as a payment's", async () => {
    const { paymentId, adapter } = await adapterFor(
      async () => ({ kind: 'failed', providerReference: null, card: null, reason: 'declined' }),
      () => ({ kind: 'fail', failure: new AppError('CARD_LINKING_FAILED'), reason: 'declined' }),
    );
    const opened: TAttemptRow[] = [];
    const fail = vi.fn(async () => {});
    const owned: TAttemptAdapter<TCardChargeOutcome, TResult> = {
      ...adapter,
      open: {
        open: async () => {
          const attempt = await openAttempt(ctx.context, adapter.open);
          opened.push(attempt);
          return attempt;
        },
        fail,
      },
    };
    await expect(runAttempt(ctx.context, owned)).rejects.toMatchObject({
      code: 'CARD_LINKING_FAILED',
    });
    expect(opened).toHaveLength(1);
    expect(fail).toHaveBeenCalledExactlyOnceWith(
      opened[0],
      expect.objectContaining({ failure: expect.any(AppError), reason: 'declined' }),
    );
    // The payment's own failure (its event, its webhook) is not written for it.
    const [attempt] = await attemptsOf(paymentId);
    expect(attempt).toMatchObject({ status: 'in_progress', stage: 'charging' });
    const events = await paymentEvents(ctx.database, paymentId);
    expect(events.map((e) => e.status)).toEqual(['in_progress']);
  });

  it('a failure with a result answers it instead of throwing', async () => {
    const { paymentId, adapter } = await adapterFor(
      async () => ({ kind: 'failed', providerReference: null, card: null, reason: 'declined' }),
      () => ({
        kind: 'fail',
        failure: new AppError('DIRECT_DEBIT_FAILED'),
        reason: 'declined',
        result: { ended: 'failed' },
      }),
    );
    expect(await runAttempt(ctx.context, adapter)).toEqual({ ended: 'failed' });
    const [attempt] = await attemptsOf(paymentId);
    expect(attempt).toMatchObject({ status: 'failed', failureCode: 'DIRECT_DEBIT_FAILED' });
  });

  it('money taken completes the payment and is booked once, however often it is recorded', async () => {
    let settled: TAttemptAnswer<TResult> | undefined;
    const { paymentId, adapter } = await adapterFor(chargeSandboxCard, (attempt, outcome) => {
      if (outcome.kind !== 'succeeded') throw new Error(`charged: ${outcome.kind}`);
      settled = paidWith(
        () => settleCardCharge(ctx.context, attempt, outcome),
        (payment) => ({ ended: payment.status }),
      );
      return settled;
    });
    expect(await runAttempt(ctx.context, adapter)).toEqual({ ended: 'executed' });
    const [attempt] = await attemptsOf(paymentId);
    expect(attempt).toMatchObject({ status: 'completed', method: 'card' });
    if (!attempt || !settled) throw new Error('no attempt recorded');
    // The same answer recorded again (its requery, a replay) books nothing more.
    expect(await recordAnswer(ctx.context, attempt, settled)).toEqual({ ended: 'executed' });
    expect(await ledgerKinds(ctx.database, paymentId)).toEqual(['card_payment']);
    const events = await paymentEvents(ctx.database, paymentId);
    expect(events.map((e) => e.status)).toEqual(['in_progress', 'completed']);
  });

  it("a slow provider: the adapter's answer first, its outcome recorded when it comes", async () => {
    let answer: (outcome: TCardChargeOutcome) => void = () => undefined;
    const { paymentId, adapter } = await adapterFor(
      () => new Promise<TCardChargeOutcome>((resolve) => (answer = resolve)),
      () => ({
        kind: 'fail',
        failure: new AppError('CARD_BANK_NO_ANSWER'),
        reason: 'timeout',
      }),
    );
    const result = await runAttempt(ctx.context, {
      ...adapter,
      slow: { waitMs: 10, result: () => ({ ended: 'charging' }) },
    });
    expect(result).toEqual({ ended: 'charging' });
    expect((await attemptsOf(paymentId))[0]).toMatchObject({ stage: 'charging' });
    answer({ kind: 'failed', providerReference: null, card: null, reason: 'timeout' });
    await expect.poll(async () => (await attemptsOf(paymentId))[0]?.status).toBe('failed');
    expect((await paymentEvents(ctx.database, paymentId)).map((e) => e.status)).toEqual([
      'in_progress',
      'failed',
    ]);
  });

  it('a late answer that cannot be recorded is said in the log, and the attempt stays charging', async () => {
    let answer: (outcome: TCardChargeOutcome) => void = () => undefined;
    const { paymentId, adapter } = await adapterFor(
      () => new Promise<TCardChargeOutcome>((resolve) => (answer = resolve)),
      () => {
        throw new Error('the database went away');
      },
    );
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await runAttempt(ctx.context, {
        ...adapter,
        slow: { waitMs: 10, result: () => ({ ended: 'charging' }) },
      });
      answer({ kind: 'failed', providerReference: null, card: null, reason: 'timeout' });
      await expect
        .poll(() => logged.mock.calls.flat().join(' '))
        .toMatch(/Recording the late answer of attempt \S+ failed: the database went away/);
      expect((await attemptsOf(paymentId))[0]).toMatchObject({
        status: 'in_progress',
        stage: 'charging',
      });
    } finally {
      logged.mockRestore();
    }
  });
});

describe('openAttempt: the opening is one statement', () => {
  const never = () => Promise.reject(new Error('not called'));
  const unread = () => {
    throw new Error('no answer to read');
  };

  it("tells the page the attempt as it was written, with its 'in_progress' event", async () => {
    const { paymentId, adapter } = await adapterFor(never, unread);
    const attempt = await openAttempt(ctx.context, adapter.open);
    const [written] = await attemptsOf(paymentId);
    expect(written).toEqual(attempt);
    const [event] = await ctx.database.db
      .select()
      .from(events)
      .where(eq(events.stream, `payment:${paymentId}`));
    expect(event?.data).toEqual({
      paymentId,
      status: 'in_progress',
      attempt: attemptViewOf(attempt),
    });
  });

  it('writes nothing, its parts neither, on a payment paid since it was read', async () => {
    const { paymentId, adapter } = await adapterFor(chargeSandboxCard, (attempt, outcome) => {
      if (outcome.kind !== 'succeeded') throw new Error(`charged: ${outcome.kind}`);
      return paidWith(
        () => settleCardCharge(ctx.context, attempt, outcome),
        (payment) => ({ ended: payment.status }),
      );
    });
    expect(await runAttempt(ctx.context, adapter)).toEqual({ ended: 'executed' });
    // A second way of paying that read the payment unpaid, before the first paid it.
    const opening = {
      ...adapter.open,
      before: (tx: TDb, open: SQL, now: Date) => [
        cardTryStep(tx, open, { paymentId, cardKey: 'card-key', now }),
      ],
    };
    await expect(openAttempt(ctx.context, opening)).rejects.toMatchObject({
      code: 'PAYMENT_ALREADY_MADE',
    });
    expect((await attemptsOf(paymentId)).map((attempt) => attempt.status)).toEqual(['completed']);
    const told = await paymentEvents(ctx.database, paymentId);
    expect(told.map((event) => event.status)).toEqual(['in_progress', 'completed']);
    const tries = await ctx.database.db
      .select()
      .from(cardPaymentTries)
      .where(eq(cardPaymentTries.paymentId, paymentId));
    expect(tries).toEqual([]);
  });

  it("a part that holds the attempt back answers its refusal, and the others' writes are not made", async () => {
    const { paymentId, adapter } = await adapterFor(never, unread);
    const opening = {
      ...adapter.open,
      before: (tx: TDb, open: SQL, now: Date) => {
        const held = sql`false`;
        const superseded = attemptMove(
          tx,
          and(eq(paymentAttempts.paymentId, paymentId), open, held),
          'abandon',
          {},
          now,
        );
        return [
          { cte: tx.$with('superseded').as(superseded) },
          {
            cte: tx.$with('held').as(
              tx
                .select({ one: sql`1` })
                .from(payments)
                .where(held),
            ),
            holds: { condition: held, refusal: 'CARD_BLOCKED_FOR_PAYMENT' as const },
          },
        ];
      },
    };
    await expect(openAttempt(ctx.context, opening)).rejects.toMatchObject({
      code: 'CARD_BLOCKED_FOR_PAYMENT',
    });
    expect(await attemptsOf(paymentId)).toEqual([]);
    expect(await paymentEvents(ctx.database, paymentId)).toEqual([]);
  });
});

describe('moveAttemptTelling: a move and its event in one statement', () => {
  it('tells the attempt as it moved, once: a move the table does not allow tells nothing', async () => {
    const { paymentId, adapter } = await adapterFor(
      () => Promise.reject(new Error('not called')),
      () => {
        throw new Error('no answer to read');
      },
    );
    const opened = await openAttempt(ctx.context, adapter.open);
    const expires = new Date(clock.now().getTime() + 600_000);
    const change = {
      providerReference: 'ref-3ds',
      stepText: 'Awaiting 3D Secure authentication...',
      challengeUrl: 'https://bank.example/3ds',
      challengeExpiresAt: expires,
    };
    const ask = () =>
      moveAttemptTelling(ctx.context.db, opened, 'ask3ds', change, clock.now(), (moved) =>
        cardStepEvent(moved, { stepText: change.stepText }),
      );
    const moved = await ask();
    const [written] = await attemptsOf(paymentId);
    expect(written).toEqual(moved);
    expect(written).toMatchObject({ stage: 'awaiting_3ds', challengeUrl: change.challengeUrl });
    const told = await ctx.database.db
      .select()
      .from(events)
      .where(eq(events.stream, `payment:${paymentId}`))
      .orderBy(events.id);
    expect(told.at(-1)?.data).toMatchObject({
      stepText: change.stepText,
      attempt: attemptViewOf(written as TAttemptRow),
    });
    // Asked again from where it is now: the table has no such move, and nothing is told.
    expect(await ask()).toBeNull();
    expect(await paymentEvents(ctx.database, paymentId)).toHaveLength(told.length);
  });
});
