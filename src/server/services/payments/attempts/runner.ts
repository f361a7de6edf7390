import type { TErrorCode } from '../../../../domain/errors';
import type { TAppContext } from '../../../context';
import type { TDb } from '../../../db/database';
import { eq, sql, type SQL, type WithSubquery } from 'drizzle-orm';
import { randomId } from '../../../crypto/secret-hash';
import { uniqueViolationOf } from '../../../db/database-errors';
import { insertWhere } from '../../../db/insert-where';
import { events, paymentAttempts, payments } from '../../../db/schema';
import { nextEventId } from '../../../events/event-log';
import { AppError } from '../../../app-error';
import { reconcilePayment } from './reconcile';
import { paidThePayment, type TCompletion } from './completion';
import {
  callProvider,
  failAttempt,
  newAttemptRow,
  paymentEventRow,
  type TAttemptChange,
  type TAttemptRow,
  type TOpeningStep,
} from './moves';
import type { TPayable } from '../payment-records';

/*
 * The one way a payment's attempt runs, whatever pays it (docs/payments.md): opened as
 * 'charging' in one statement under the payment's lock (one charge of a payment at a time), the provider called
 * outside any transaction, and its answer recorded: completed with the ledger in a transaction of
 * its own, failed with its event, or waiting for the payer. A call that threw leaves the attempt
 * 'charging': whether money moved is not known, so the reconciler asks the provider about its
 * reference (reconcile.ts). A way of paying is an adapter: what its attempt records, how its
 * provider is called, and what its answers mean. An attempt made for something other than a
 * payment (a card link's test charge, purpose 'link_test') runs the same way, its owner opening
 * it and ending it when refused (TAttemptOwner).
 */

type TRunContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config' | 'jobs'>;
type TPaymentRow = typeof payments.$inferSelect;

/**
 * The columns an adapter gives its attempt (with the provider of the capability it calls); the
 * runner sets the payment's and the state's.
 */
export type TAttemptFields = Omit<
  typeof paymentAttempts.$inferInsert,
  'id' | 'paymentId' | 'consentId' | 'status' | 'stage' | 'amount' | 'createdAt' | 'updatedAt'
>;

/** How an attempt is opened on a payment the caller may pay (loadPayable). */
export type TAttemptOpening = {
  payable: TPayable;
  fields: TAttemptFields;
  /** Parts written before the attempt, each only where `open` holds. */
  before?: (tx: TDb, open: SQL, now: Date) => TOpeningStep[];
  /** Parts written with the attempt (known by its id), each only where `written` holds. */
  after?: (tx: TDb, attemptId: string, written: SQL, now: Date) => WithSubquery[];
  /** The refusal a unique index a part writes to means when it is broken (a reused RRN). */
  conflicts?: Record<string, TErrorCode>;
};

/**
 * What an attempt is made for when it is not a payment (a card link's test charge): the owner
 * opens the attempt (as 'charging', with whatever it belongs to) and ends it when its provider
 * refuses, in its own words and events. A payment's attempt opens by its TAttemptOpening and
 * fails with its payment's event and webhook (failAttempt).
 */
export type TAttemptOwner = {
  open: () => Promise<TAttemptRow>;
  fail: (attempt: TAttemptRow, refusal: TAttemptRefusal) => Promise<void>;
};

/** A provider's refusal of an attempt, as its adapter reads it. */
export type TAttemptRefusal = {
  failure: AppError;
  reason: string;
  /** Set on the attempt by the move that ends it. */
  change?: TAttemptChange;
};

/** What a provider's answer means for the attempt, as an adapter reads it. */
export type TAttemptAnswer<TResult> =
  /**
   * The money moved: recorded once by `record` (a payment's booked by settlements.ts: paidWith),
   * which answers the caller.
   */
  | { kind: 'complete'; record: () => Promise<TResult> }
  /**
   * Refused: the attempt ends failed with the catalogue's error and its event (its owner's, for
   * an attempt that is not a payment's); thrown, unless `result` answers the caller instead.
   */
  | (TAttemptRefusal & {
      kind: 'fail';
      /** Kept before the attempt ends (e.g. the acquirer's codes on its purchase). */
      note?: () => Promise<void>;
      result?: TResult;
    })
  /** Waiting for the payer (an OTP, a 3-D Secure check): the adapter records the wait. */
  | { kind: 'wait'; record: () => Promise<TResult> };

/**
 * The money moved for a payment: booked once by `settle` (settlements.ts), then the caller's
 * answer. Paid meanwhile by another way, this charge was booked back out and is given back: 409
 * PAYMENT_ALREADY_MADE.
 */
export function paidWith<TResult>(
  settle: () => Promise<TCompletion>,
  result: (payment: TPaymentRow) => TResult,
): TAttemptAnswer<TResult> {
  return {
    kind: 'complete',
    record: async () => {
      const completion = await settle();
      if (!paidThePayment(completion)) throw new AppError('PAYMENT_ALREADY_MADE');
      return result(completion.payment);
    },
  };
}

export type TAttemptAdapter<TOutcome, TResult> = {
  /** A payment's opening, or the owner of an attempt that is not a payment's. */
  open: TAttemptOpening | TAttemptOwner;
  /** The provider's call for the opened attempt (its id is the provider's reference). */
  call: (attempt: TAttemptRow) => Promise<TOutcome>;
  /**
   * A call that threw: the catalogue's code thrown, or what the caller is answered. Either way
   * the attempt stays 'charging' for the reconciler.
   */
  noAnswer: TErrorCode | (() => TResult);
  answer: (attempt: TAttemptRow, outcome: TOutcome) => Promise<TAttemptAnswer<TResult>>;
  /** After the answer is recorded (or failed to be), whatever it was. */
  afterRecord?: (outcome: TOutcome) => Promise<void>;
  /**
   * A provider that may answer slowly: after `waitMs` the caller is answered `result` and the
   * answer is recorded when it comes (or by the reconciler, if this process stops first).
   */
  slow?: { waitMs: number; result: (attempt: TAttemptRow) => TResult };
};

/**
 * Opens an attempt as 'charging': a lost charge of the payment is asked about first (booked if
 * it was taken), then, in one statement, the payment's row locked (one charge of a payment at a
 * time: a completion takes the same lock) and found unpaid, the adapter's parts written (its
 * claims, held or refused), the attempt and its 'in_progress' event. Nothing is written when the
 * payment was paid or a part held the attempt back; a second charge of the payment at once breaks
 * the one-charging index, and the whole statement is undone (PAYMENT_IN_PROGRESS).
 */
export async function openAttempt(
  ctx: TRunContext,
  opening: TAttemptOpening,
): Promise<TAttemptRow> {
  const { payable } = opening;
  await reconcilePayment(ctx, payable.payment.id, payable.atProviderSince);
  const now = ctx.clock.now();
  const { db } = ctx;
  const values = {
    id: randomId('att'),
    paymentId: payable.payment.id,
    consentId: payable.consentId,
    status: 'in_progress',
    stage: 'charging',
    amount: payable.payment.amount,
    createdAt: now,
    updatedAt: now,
    ...opening.fields,
  } as const;
  const locked = db
    .$with('locked')
    .as(
      db
        .select({ status: payments.status })
        .from(payments)
        .where(eq(payments.id, payable.payment.id))
        .for('update'),
    );
  const open = sql`exists (select 1 from ${locked} where status <> 'executed')`;
  const steps = opening.before?.(db, open, now) ?? [];
  const holds = steps.flatMap((step) => (step.holds ? [step.holds] : []));
  const inserted = db
    .$with('inserted')
    .as(
      insertWhere(
        db,
        paymentAttempts,
        values,
        sql.join([open, ...holds.map((hold) => hold.condition)], sql` and `),
      ).returning(),
    );
  const written = sql`exists (select 1 from ${inserted})`;
  const event = paymentEventRow(
    { paymentId: values.paymentId, status: 'in_progress' },
    newAttemptRow(values),
  );
  const streamed = db
    .$with('streamed')
    .as(insertWhere(db, events, { ...event, id: nextEventId(event.stream) }, written));
  const [row] = await db
    .with(
      locked,
      ...steps.map((step) => step.cte),
      inserted,
      ...(opening.after?.(db, values.id, written, now) ?? []),
      streamed,
    )
    .select({
      paymentStatus: locked.status,
      held: sql<boolean[]>`array[${sql.join(
        holds.map((hold) => hold.condition),
        sql`, `,
      )}]::boolean[]`,
      attempt: inserted._.selectedFields,
    })
    .from(locked)
    .leftJoin(inserted, sql`true`)
    .catch((error: unknown) => {
      throw refusalOf(error, opening.conflicts) ?? error;
    });
  if (!row) throw new AppError('NOT_FOUND');
  if (row.paymentStatus === 'executed') throw new AppError('PAYMENT_ALREADY_MADE');
  const refused = holds.find((_, index) => !row.held[index]);
  if (refused) throw new AppError(refused.refusal);
  if (!row.attempt?.id) throw new Error(`Attempt ${values.id} was not written`);
  return row.attempt;
}

/** The payment's one charge at a time (migration 0064): a second at once is in progress. */
const ONE_CHARGING: Record<string, TErrorCode> = {
  payment_attempts_one_charging: 'PAYMENT_IN_PROGRESS',
};

/**
 * A unique index the opening broke, as the catalogue's refusal: a second charge, or a part's
 * (`conflicts`). Any other is a fault of ours, thrown as it is.
 */
function refusalOf(error: unknown, conflicts: Record<string, TErrorCode> = {}): AppError | null {
  const index = uniqueViolationOf(error);
  const refusal = index === null ? undefined : { ...ONE_CHARGING, ...conflicts }[index];
  return refusal ? new AppError(refusal) : null;
}

/** Records what an adapter read in a provider's answer (TAttemptAnswer). */
export async function recordAnswer<TResult>(
  ctx: Pick<TAppContext, 'db' | 'clock' | 'jobs'>,
  attempt: TAttemptRow,
  answer: TAttemptAnswer<TResult>,
  /** How a refusal ends the attempt: its owner's, where it is not a payment's. */
  fail: TAttemptOwner['fail'] = paymentFails(ctx),
): Promise<TResult> {
  switch (answer.kind) {
    case 'complete':
    case 'wait':
      return answer.record();
    case 'fail': {
      await answer.note?.();
      await fail(attempt, answer);
      if (answer.result === undefined) throw answer.failure;
      return answer.result;
    }
  }
}

/** A payment's attempt refused: failed with its payment's event and webhook (failAttempt). */
const paymentFails =
  (ctx: Pick<TAppContext, 'db' | 'clock' | 'jobs'>): TAttemptOwner['fail'] =>
  async (attempt, { failure, reason, change }) => {
    await failAttempt(ctx, attempt, failure, reason, ctx.clock.now(), 'fail', change);
  };

/** The owner of an adapter's attempts: its own, or the payment its opening names. */
function ownerOf(ctx: TRunContext, open: TAttemptOpening | TAttemptOwner): TAttemptOwner {
  if (!('payable' in open)) return open;
  return { open: () => openAttempt(ctx, open), fail: paymentFails(ctx) };
}

/** One attempt run by its adapter: opened, called, and its answer recorded. */
export async function runAttempt<TOutcome, TResult>(
  ctx: TRunContext,
  adapter: TAttemptAdapter<TOutcome, TResult>,
): Promise<TResult> {
  const owner = ownerOf(ctx, adapter.open);
  const attempt = await owner.open();
  const { noAnswer } = adapter;
  const call = callProvider(typeof noAnswer === 'function' ? 'PAYMENT_FAILED' : noAnswer, () =>
    adapter.call(attempt),
  );
  const record = async (outcome: TOutcome): Promise<TResult> => {
    const answer = await adapter.answer(attempt, outcome);
    try {
      return await recordAnswer(ctx, attempt, answer, owner.fail);
    } finally {
      await adapter.afterRecord?.(outcome);
    }
  };
  let answered: { outcome: TOutcome } | null;
  try {
    answered = await answerWithin(call, adapter.slow?.waitMs);
  } catch (error) {
    if (typeof noAnswer === 'function' && error instanceof AppError) return noAnswer();
    throw error;
  }
  if (!answered) {
    void call.then(record).catch((error: unknown) => {
      // A refusal is recorded before it is thrown. Anything else leaves the attempt charging,
      // for the reconciler to ask the provider again (docs/payments.md "Reconciliation").
      if (error instanceof AppError) return;
      const reason = error instanceof Error ? error.message : String(error);
      console.error(`Recording the late answer of attempt ${attempt.id} failed: ${reason}`);
    });
    // Only a slow adapter waits a limited time (answerWithin).
    if (!adapter.slow) throw new Error('A provider call ended without an answer');
    return adapter.slow.result(attempt);
  }
  return record(answered.outcome);
}

/** The call's answer, or null when `waitMs` passed first (no limit without it). */
async function answerWithin<T>(
  call: Promise<T>,
  waitMs: number | undefined,
): Promise<{ outcome: T } | null> {
  if (waitMs === undefined) return { outcome: await call };
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    call.then((outcome) => ({ outcome })),
    new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), waitMs);
    }),
  ]).finally(() => clearTimeout(timer));
}
