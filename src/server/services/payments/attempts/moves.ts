import { and, desc, eq, getTableColumns, is, ne, SQL, sql, type WithSubquery } from 'drizzle-orm';
import type { TErrorCode } from '../../../../domain/errors';
import {
  ATTEMPT_STATES,
  ATTEMPT_TRANSITIONS,
  GIVE_BACK_STATES,
  GIVE_BACK_TRANSITIONS,
  type TAttemptEdge,
  type TAttemptState,
  type TGiveBackEdge,
  type TGiveBackState,
} from '../../../../domain/payment-attempts';
import type { TPaymentOrigin } from '../../../../domain/schemas/consent';
import type { TPaymentStatusEvent } from '../../../../domain/schemas/payment';
import { randomId } from '../../../crypto/secret-hash';
import type { TDb } from '../../../db/database';
import type { TJobQueue } from '../../../jobs/engine';
import { isUniqueViolation } from '../../../db/database-errors';
import { consents, events, paymentAttempts, payments } from '../../../db/schema';
import { appendEvent, eventStreams, nextEventId } from '../../../events/event-log';
import { insertWhere } from '../../../db/insert-where';
import { AppError } from '../../../app-error';
import { writeChangeRecords, type TStreamEventRow } from '../../change-records';
import { consentMove } from '../../consents/consent-moves';
import { attemptViewOf } from '../attempt-view';

/*
 * An attempt's lifecycle (docs/payments.md): its creation, every change of its state and of its
 * give-back along the tables of src/domain/payment-attempts.ts in one statement each, its failure,
 * the closing of a paid payment's other attempts, and the stream event each change writes. Its completion, which
 * executes the payment, is completion.ts.
 */

export type TAttemptRow = typeof paymentAttempts.$inferSelect;

/** A payment's attempt: its payment and consent named (ATTEMPT_PURPOSES). */
export type TPaymentAttemptRow = TAttemptRow & { paymentId: string; consentId: string };

/** Attempts of payments, not card links' test charges: what the payment's own work reads. */
export const ofPayments = eq(paymentAttempts.purpose, 'payment');

/**
 * The attempt as a payment's: a card link's test charge handed to the payment's work is a fault
 * of the caller, never a payment without one.
 */
export function asPaymentAttempt(attempt: TAttemptRow): TPaymentAttemptRow {
  const { paymentId, consentId } = attempt;
  if (paymentId === null || consentId === null) {
    throw new Error(`Attempt ${attempt.id} is a ${attempt.purpose}'s, not a payment's`);
  }
  return { ...attempt, paymentId, consentId };
}

/** The payment a payment's attempt pays (asPaymentAttempt). */
export const paymentIdOf = (attempt: TAttemptRow): string => asPaymentAttempt(attempt).paymentId;

/**
 * A card link's test charge this long without an answer is taken for lost with its process
 * (docs/accounts.md). A payment's attempt is never given up by age: the reconciler asks the
 * provider about it (reconcile.ts).
 */
export const STALE_CHARGE_MS = 5 * 60 * 1_000;

/**
 * A part of an attempt's opening statement (openAttempt), written before the attempt: a CTE whose
 * change happens only where the statement's `open` condition holds (the payment locked and
 * unpaid), and which may hold the attempt back (a card tried too often on the payment).
 */
export type TOpeningStep = {
  cte: WithSubquery;
  holds?: { condition: SQL; refusal: TErrorCode };
};

/** Creates an attempt; a second card charge of one payment at once is PAYMENT_IN_PROGRESS. */
export async function insertAttempt(
  tx: TDb,
  values: Omit<typeof paymentAttempts.$inferInsert, 'id'>,
): Promise<TAttemptRow> {
  try {
    const [attempt] = await tx
      .insert(paymentAttempts)
      .values({ id: randomId('att'), ...values })
      .returning();
    if (!attempt) throw new Error('An attempt could not be recorded');
    return attempt;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('PAYMENT_IN_PROGRESS');
    throw error;
  }
}

/**
 * An attempt's row as `values` will write it, before it is written: every column not given is
 * its default or null. What its opening's event tells the page of it (openAttempt), in the
 * statement that writes both.
 */
export function newAttemptRow(values: typeof paymentAttempts.$inferInsert): TAttemptRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(paymentAttempts))) {
    const given = (values as Record<string, unknown>)[key];
    row[key] = given ?? (is(column.default, SQL) ? null : (column.default ?? null));
  }
  return row as TAttemptRow;
}

/**
 * What a move may set besides the state its edge reaches. The give-back is a lifecycle of its own
 * (moveGiveBack), never set beside a state.
 */
export type TAttemptChange = Omit<
  Partial<typeof paymentAttempts.$inferInsert>,
  'id' | 'status' | 'stage' | 'updatedAt' | 'refund' | 'refundReference'
>;

/** A constant of the domain's attempt states as an SQL literal. */
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** Each list of states' condition, made once: moves run it on every attempt's every change. */
const stateConditions = new WeakMap<readonly TAttemptState[], SQL>();

/**
 * The rows in one of `states`, as a condition on the status and stage pair. Its values are the
 * domain's constants (ATTEMPT_STATES), written into the statement's text: one text per list.
 */
export function inAttemptStates(states: readonly TAttemptState[]): SQL {
  const known = stateConditions.get(states);
  if (known) return known;
  const pairs = states.map((state) => {
    const { status, stage } = ATTEMPT_STATES[state];
    const stageIs = stage === null ? 'IS NULL' : `= ${literal(stage)}`;
    return `("payment_attempts"."status" = ${literal(status)} AND "payment_attempts"."stage" ${stageIs})`;
  });
  const condition = sql.raw(pairs.length > 0 ? `(${pairs.join(' OR ')})` : 'false');
  stateConditions.set(states, condition);
  return condition;
}

/**
 * The statement that moves the attempts `which` along `edge` of ATTEMPT_TRANSITIONS
 * (src/domain/payment-attempts.ts): it checks each is in one of the edge's `from` states and moves
 * it, with `change`. Not yet sent: moveAttempts sends it, payAttempt and an attempt's opening
 * (openAttempt's parts) make it part of another.
 */
export function attemptMove(
  db: TDb,
  which: SQL | undefined,
  edge: TAttemptEdge,
  change: TAttemptChange,
  now: Date,
) {
  const { from } = ATTEMPT_TRANSITIONS[edge];
  return db
    .update(paymentAttempts)
    .set(movedColumns(edge, change, now))
    .where(and(which, inAttemptStates(from)));
}

/** What a move along `edge` writes: the state it reaches, with `change`. */
function movedColumns(edge: TAttemptEdge, change: TAttemptChange, now: Date) {
  const { to } = ATTEMPT_TRANSITIONS[edge];
  const { status, stage } = ATTEMPT_STATES[to];
  const ended = to === 'completed' || to === 'failed';
  return {
    ...(ended ? { stepText: null } : {}),
    ...(to === 'completed' ? { completedAt: now } : {}),
    ...change,
    status,
    stage,
    updatedAt: now,
  };
}

/**
 * Moves `attempt` along `edge` (moveAttempt) and writes the stream event `told` makes of it as
 * moved, in one statement: the event exists exactly when the move does. The event is made before
 * the statement, from the attempt as read with what the move writes, so nothing is read back
 * between them. Null when it was not in a `from` state (and nothing was told).
 */
export async function moveAttemptTelling(
  db: TDb,
  attempt: TAttemptRow,
  edge: TAttemptEdge,
  change: TAttemptChange,
  now: Date,
  told: (moved: TAttemptRow) => TStreamEventRow,
): Promise<TAttemptRow | null> {
  const moved = db
    .$with('moved')
    .as(attemptMove(db, eq(paymentAttempts.id, attempt.id), edge, change, now).returning());
  // A column the change leaves undefined is not written (as the update leaves it).
  const written = Object.entries(movedColumns(edge, change, now)).filter(
    ([, v]) => v !== undefined,
  );
  const event = told({ ...attempt, ...Object.fromEntries(written) });
  const streamed = db
    .$with('streamed')
    .as(
      insertWhere(
        db,
        events,
        { ...event, id: nextEventId(event.stream) },
        sql`exists (select 1 from ${moved})`,
      ),
    );
  const [row] = await db.with(moved, streamed).select().from(moved);
  return row ?? null;
}

/**
 * The one way an attempt's state changes: along an edge of ATTEMPT_TRANSITIONS
 * (src/domain/payment-attempts.ts), in one statement that checks the attempt is in one of the
 * edge's `from` states (and `also`, when given) and moves it. Answers the attempts moved; none
 * when they were not there any more (another request moved them first).
 */
export async function moveAttempts(
  db: TDb,
  which: SQL,
  edge: TAttemptEdge,
  change: TAttemptChange,
  now: Date,
): Promise<TAttemptRow[]> {
  return attemptMove(db, which, edge, change, now).returning();
}

/** Moves one attempt along `edge` (moveAttempts): null when it was not in a `from` state. */
export async function moveAttempt(
  db: TDb,
  attemptId: string,
  edge: TAttemptEdge,
  change: TAttemptChange,
  now: Date,
  also?: SQL,
): Promise<TAttemptRow | null> {
  const [moved] = await moveAttempts(
    db,
    and(eq(paymentAttempts.id, attemptId), also) ?? sql`false`,
    edge,
    change,
    now,
  );
  return moved ?? null;
}

/** The domain's give-backs are the values the attempt's `refund` column holds. */
const GIVE_BACK_COLUMN: Record<TGiveBackState, TAttemptRow['refund']> = GIVE_BACK_STATES;

/** The rows whose give-back is one of `states`, as a condition on the `refund` column. */
function inGiveBackStates(states: readonly TGiveBackState[]): SQL {
  const values = states.map((state) => {
    const value = GIVE_BACK_COLUMN[state];
    return value === null
      ? '"payment_attempts"."refund" IS NULL'
      : `"payment_attempts"."refund" = ${literal(value)}`;
  });
  return sql.raw(values.length > 0 ? `(${values.join(' OR ')})` : 'false');
}

/**
 * The one way an attempt's give-back changes: along an edge of GIVE_BACK_TRANSITIONS
 * (src/domain/payment-attempts.ts), in one statement that checks the attempt's give-back is in
 * one of the edge's `from` states and moves it, with what the edge records (`change`: an
 * operator's refund reference, what the provider took). Null when it was not there (moved first,
 * or never owed).
 */
export async function moveGiveBack(
  db: TDb,
  attemptId: string,
  edge: TGiveBackEdge,
  now: Date,
  change: TAttemptChange & { refundReference?: string } = {},
): Promise<TAttemptRow | null> {
  const { from, to } = GIVE_BACK_TRANSITIONS[edge];
  const [moved] = await db
    .update(paymentAttempts)
    .set({ ...change, refund: GIVE_BACK_COLUMN[to], updatedAt: now })
    .where(and(eq(paymentAttempts.id, attemptId), inGiveBackStates(from)))
    .returning();
  return moved ?? null;
}

/** What payAttempt did: the attempt as it moved, and whether the payment granted its consent. */
type TPaidAttempt = { attempt: TAttemptRow; consentGranted: boolean };

/**
 * An attempt pays its payment, in one statement (completion.ts completeAttempt): the attempt moves
 * along `edge` ('complete', or 'paidAfterCallOff' for a pushed terminal's request paid after it
 * was called off) with what it took; the payment's other ways the payer had started (an open
 * transfer account, a charge waiting for its OTP) close with it, money that still reaches them
 * returned or refunded; the payment is executed with where its money came from; and, when the
 * caller says the payment grants its consent (`grant`, src/domain/granted-by-payment.ts), the
 * consent is granted along its lifecycle's 'grant' edge (consent-moves.ts consentMove), by whoever
 * paid, unless it left pending meanwhile. The others happen only when the first did; the caller
 * holds the payment's and the attempt's locks (the completion's lock), so no one else moves
 * either meanwhile. Answers the attempt as it moved and whether the consent was granted; null when
 * the attempt was not in a state that may take `edge`, and then nothing changed.
 */
export async function payAttempt(
  tx: TDb,
  paid: {
    attemptId: string;
    paymentId: string;
    origin: TPaymentOrigin;
    grant: { consentId: string; grantedBy: string | null } | null;
  },
  edge: 'complete' | 'paidAfterCallOff',
  change: TAttemptChange,
  now: Date,
): Promise<TPaidAttempt | null> {
  const { attemptId, paymentId, origin, grant } = paid;
  const moved = tx
    .$with('moved')
    .as(attemptMove(tx, eq(paymentAttempts.id, attemptId), edge, change, now).returning());
  const didMove = sql`exists (select 1 from ${moved})`;
  const closed = tx
    .$with('closed_others')
    .as(
      attemptMove(
        tx,
        and(eq(paymentAttempts.paymentId, paymentId), ne(paymentAttempts.id, attemptId), didMove),
        'closedByPayment',
        { failureCode: 'PAYMENT_ALREADY_MADE', failureReason: 'paid_by_another_attempt' },
        now,
      ),
    );
  const executed = tx.$with('executed').as(
    tx
      .update(payments)
      .set({ status: 'executed', executedAt: now, origin })
      .where(and(eq(payments.id, paymentId), didMove)),
  );
  if (!grant) {
    const [row] = await tx.with(moved, closed, executed).select().from(moved);
    return row ? { attempt: row, consentGranted: false } : null;
  }
  const granted = tx.$with('granted').as(
    consentMove(tx, and(eq(consents.id, grant.consentId), didMove), 'grant', {
      grantedAt: now,
      grantedBy: grant.grantedBy,
    }).returning({ id: consents.id }),
  );
  const [row] = await tx
    .with(moved, closed, executed, granted)
    .select()
    .from(moved)
    .leftJoin(granted, sql`true`);
  return row ? { attempt: row.moved, consentGranted: row.granted !== null } : null;
}

/** Ends an attempt as failed, with the catalogue's code and message, and tells the stream. */
export async function failAttempt(
  { db, jobs }: { db: TDb; jobs: TJobQueue },
  attempt: TAttemptRow,
  failure: AppError,
  reason: string,
  now: Date,
  /**
   * 'fail': the provider's answer ended it; 'abandon': it ended without the provider;
   * 'offerElsewhere': past the requery gate, the next provider may take the payer's next try;
   * 'callOff': a pushed terminal's request unpaid past its expiry.
   */
  edge: 'fail' | 'abandon' | 'offerElsewhere' | 'callOff' = 'fail',
  change: TAttemptChange = {},
): Promise<TAttemptRow | null> {
  return db.transaction(async (tx) => {
    const ended = await moveAttempt(
      tx,
      attempt.id,
      edge,
      { failureCode: failure.code, failureReason: reason, ...change },
      now,
    );
    if (!ended) return null;
    const { paymentId, consentId } = asPaymentAttempt(attempt);
    await writeChangeRecords(
      jobs,
      tx,
      {
        streamEvents: [
          paymentEventRow({ paymentId, status: 'failed', message: failure.message }, ended),
        ],
        merchantEvents: [
          {
            clientId: null,
            consentId,
            type: 'payment.failed',
            data: {
              consentId,
              paymentId,
              method: attempt.method,
              code: failure.code,
              message: failure.message,
            },
          },
        ],
      },
      now,
    );
    return ended;
  });
}

/**
 * Calls the provider for an attempt under way. A call that threw (a network fault, no answer)
 * throws `failureCode`, and the attempt stays as it is, 'charging': whether the money moved is
 * not known, so nothing may charge the payment again until the reconciler has asked the provider
 * about the attempt's reference (reconcile.ts).
 */
export async function callProvider<T>(failureCode: TErrorCode, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch {
    throw new AppError(failureCode);
  }
}

/**
 * Writes an event on the payment's stream inside `tx`, the transaction of the change, with the
 * attempt it is about as the payment read shows it (attempt-view.ts).
 */
export function emitPaymentEvent(
  tx: TDb,
  event: Omit<TPaymentStatusEvent, 'attempt'>,
  attempt: TAttemptRow,
): Promise<number> {
  return appendEvent(tx, paymentEventRow(event, attempt));
}

/** The payment stream's event about `attempt`, for a change's records (change-records.ts). */
export const paymentEventRow = (
  event: Omit<TPaymentStatusEvent, 'attempt'>,
  attempt: TAttemptRow,
): TStreamEventRow => ({
  stream: eventStreams.payment(event.paymentId),
  type: 'payment_status',
  data: { ...event, attempt: attemptViewOf(attempt) } satisfies TPaymentStatusEvent,
});

/**
 * The payment stream's event that its card charge waits for its payer at a step (its PIN, an OTP,
 * a 3-D Secure check): a page answered 'charging' before the issuer asked, or before a requery
 * found the step, learns of it there.
 */
export function cardStepEvent(
  moved: TAttemptRow,
  step: { stepText: string | null; otpDisplayMessage?: TPaymentStatusEvent['otpDisplayMessage'] },
): TStreamEventRow {
  const { stepText, ...otp } = step;
  return paymentEventRow(
    {
      paymentId: paymentIdOf(moved),
      status: 'in_progress',
      paymentType: 'card',
      ...(stepText ? { stepText } : {}),
      ...otp,
    },
    moved,
  );
}

/** The latest attempt of a payment, if any. */
export async function latestAttempt(db: TDb, paymentId: string): Promise<TAttemptRow | null> {
  const [attempt] = await db
    .select()
    .from(paymentAttempts)
    .where(eq(paymentAttempts.paymentId, paymentId))
    .orderBy(desc(paymentAttempts.createdAt), desc(paymentAttempts.id))
    .limit(1);
  return attempt ?? null;
}
