// A card link's test charge (spec §9), an attempt of its own (link-test-attempts.ts): the card
// network that made it, what the network's word on it records (taken: booked, owed back, given
// back; not taken: failed), the link's card-linking events and how a link ends
// (docs/accounts.md "Linking by card").
import { and, eq } from 'drizzle-orm';
import { errorStatus } from '../../../domain/errors';
import type { TCardLinkingEvent } from '../../../domain/schemas/card';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import { accountLinks } from '../../db/schema';
import { appendEvent, eventStreams } from '../../events/event-log';
import type {
  TCardsPort,
  TCardSummary,
  TNoticedCharge,
  TRequeryOutcome,
} from '../../providers/payments';
import { abandonLink } from './link-lifecycle';
import { linkChargesIn, moveLinkCharge, whoseLink, type TLinkCharge } from './link-test-attempts';
import { AppError } from '../../app-error';
import { book, ledgerAccount } from '../payments/ledger';
import { moveGiveBack } from '../payments/attempts/moves';

export type TCardLinkContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config' | 'jobs'>;

/** What the card network's statement shows for a link's test charge. */
export const TEST_CHARGE_NARRATION = 'Card linking test charge';

/**
 * The cards port of the provider that made a link's test charge, as its attempt names it: every
 * later call about the charge (its OTP, requery, refund) goes there, whichever provider takes new
 * cards now. A provider this server no longer runs is ProviderNotConfigured, never another's port.
 */
export function chargeCardsOf(
  ctx: Pick<TAppContext, 'providers'>,
  charge: Pick<TLinkCharge, 'provider'>,
): TCardsPort {
  return ctx.providers.registry.portOf(charge.provider, 'cards');
}

/** The payer whose link a test charge is made for: every link has one. */
export function payerOf(charge: Pick<TLinkCharge, 'id' | 'payerId'>): string {
  if (charge.payerId === null) throw new Error(`Card link ${charge.id} names no payer`);
  return charge.payerId;
}

/** A card-linking event on the payer's stream (spec §7), inside `tx`, the change's transaction. */
export function emitCardLinking(
  tx: TDb,
  payerId: string,
  event: TCardLinkingEvent,
): Promise<number> {
  return appendEvent(tx, {
    stream: eventStreams.cardLinking(payerId),
    type: event.event,
    data: event,
  });
}

/**
 * The event a failure tells the page: the bank or network at fault (5xx) is an error, a card
 * the issuer refused, a wrong OTP or a failed 3-D Secure check a failure (spec §4 card_entry).
 */
const failureEvent = (paymentId: string, failure: AppError): TCardLinkingEvent => ({
  event: errorStatus(failure.code) >= 500 ? 'card_linking_error' : 'card_linking_failed',
  paymentId,
  error: failure.message,
});

/**
 * Ends the link of a test charge with `failure`, its events in the same transaction; false if it
 * had ended. The charge is not moved: it ends by the network's word (recordNotTaken,
 * recordTaken), and one whose word is not had is asked about by the reconciler
 * (lost-link-charges.ts), since its money may still be out.
 */
export async function endLink(
  db: TDb,
  charge: Pick<TLinkCharge, 'id' | 'payerId'>,
  failure: AppError,
  now: Date,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const ended = await abandonLink(tx, charge.id, now, failure.message);
    if (ended) await emitCardLinking(tx, payerOf(charge), failureEvent(charge.id, failure));
    return ended;
  });
}

/**
 * Books the test charge (the card's money held by the provider) and, once the provider refunded
 * it, its refund: the two net to zero on every account. Each is booked once by its kind and the
 * link's id.
 */
async function bookTestCharge(tx: TDb, charge: TLinkCharge, refunded: boolean): Promise<void> {
  const { amount } = charge;
  await book(tx, {
    reference: charge.id,
    paymentId: null,
    attemptId: null,
    kind: 'link_test_charge',
    narration: TEST_CHARGE_NARRATION,
    entries: [
      { account: ledgerAccount.payerSource('card'), amount: -amount },
      { account: ledgerAccount.linkTestCharges(), amount },
    ],
  });
  if (refunded) await bookTestChargeBack(tx, charge, `${TEST_CHARGE_NARRATION} refunded`);
}

/**
 * Books a test charge booked taken back out to the card (once, by the link's id): refunded, or
 * never taken after all by the network's last word.
 */
async function bookTestChargeBack(
  tx: TDb,
  charge: Pick<TLinkCharge, 'id' | 'amount'>,
  narration: string,
): Promise<void> {
  const { amount } = charge;
  await book(tx, {
    reference: charge.id,
    paymentId: null,
    attemptId: null,
    kind: 'test_charge_refund',
    narration,
    entries: [
      { account: ledgerAccount.linkTestCharges(), amount: -amount },
      { account: ledgerAccount.payerSource('card'), amount },
    ],
  });
}

/**
 * The network's word that it took a link's test charge, recorded inside `tx`: the charge taken
 * from a step it waited at for its payer, completed with the network's reference and the card,
 * owed back, and booked; with `refunded`, given back and its refund booked. Each move and booking
 * happens once however often the word is told. Answers whether the charge completed now (false:
 * it had ended, its money only booked and owed back).
 */
export async function recordTaken(
  tx: TDb,
  charge: TLinkCharge,
  taken: { providerReference: string; card?: TCardSummary | null },
  refunded: boolean,
  now: Date,
): Promise<boolean> {
  await moveLinkCharge(tx, charge.id, 'takeAnswer', {}, now);
  const { card } = taken;
  const completed = await moveLinkCharge(
    tx,
    charge.id,
    'complete',
    {
      providerReference: taken.providerReference,
      ...(card ? { cardBrand: card.brand, cardFirst6: card.first6, cardLast4: card.last4 } : {}),
    },
    now,
  );
  await moveGiveBack(tx, charge.id, 'owe', now);
  if (refunded) await moveGiveBack(tx, charge.id, 'giveBack', now);
  await bookTestCharge(tx, charge, refunded);
  return completed !== null;
}

/**
 * The network's word that it took nothing for a link's test charge (refused, or never taken),
 * recorded inside `tx`: the charge fails with `failure`, from the network or from a step it waited
 * at for its payer, and owes nothing back. False when it had ended.
 */
export async function recordNotTaken(
  tx: TDb,
  charge: Pick<TLinkCharge, 'id' | 'amount'>,
  failure: AppError,
  reason: string,
  now: Date,
): Promise<boolean> {
  const change = { failureCode: failure.code, failureReason: reason };
  const failed =
    (await moveLinkCharge(tx, charge.id, 'fail', change, now)) ??
    (await moveLinkCharge(tx, charge.id, 'abandon', change, now));
  // Money recorded taken (and owed back) that the network says it never took is owed no more,
  // and its booking goes back out to the card: nothing stays held for a charge never made.
  if (await moveGiveBack(tx, charge.id, 'giveBack', now)) {
    await bookTestChargeBack(tx, charge, `${TEST_CHARGE_NARRATION} not taken`);
  }
  return failed !== null;
}

/** A card link's test charge waiting at its 3-D Secure check, its link still open. */
export const atThreeDsCheck = and(
  linkChargesIn(['awaiting_3ds']),
  whoseLink(and(eq(accountLinks.route, 'card'), eq(accountLinks.state, 'created'))),
);

/**
 * What the provider that made a link's test charge says of it (by the link's id); null when it
 * did not answer, or is not run now (asked again at the next run).
 */
export async function askAboutLinkCharge(
  ctx: Pick<TAppContext, 'providers'>,
  charge: Pick<TLinkCharge, 'id' | 'provider'>,
): Promise<TNoticedCharge | null> {
  try {
    return await chargeCardsOf(ctx, charge).requeryCardCharge(charge.id);
  } catch {
    // Not answered now: the charge stays where it is, to be asked about again.
    return null;
  }
}

/**
 * The network's last word on a card link's test charge, whoever asked (the reconciler, a new
 * attempt): taken, the money goes back to the card (the network's token for it is not at hand, so
 * the card cannot be saved), refunded first and then recorded (recordTaken); never taken, nothing
 * to give back (recordNotTaken). Either way the link, if still open, ends 'Failed to link card',
 * for the payer to link again. The refund is one per reference however often asked
 * (TCardsPort.refundCard) and each booking and move once, so two askers at once give back once; a
 * refund that fails throws, the charge left owed (or at the network) for the reconciler's next run.
 */
export async function settleLinkCharge(
  ctx: Pick<TAppContext, 'db' | 'clock' | 'providers'>,
  charge: TLinkCharge,
  word: Exclude<TRequeryOutcome, { kind: 'pending' }>,
): Promise<'given_back' | 'failed'> {
  const failure = new AppError('CARD_LINK_FAILED');
  if (word.kind === 'not_taken') {
    await ctx.db.transaction(async (tx) => {
      await recordNotTaken(tx, charge, failure, word.reason, ctx.clock.now());
      await endLink(tx, charge, failure, ctx.clock.now());
    });
    return 'failed';
  }
  if (!word.givenBack) {
    await chargeCardsOf(ctx, charge).refundCard({
      providerReference: word.providerReference,
      amount: word.amount,
      reference: charge.id,
    });
  }
  await ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now();
    await recordTaken(tx, charge, word, true, now);
    await endLink(tx, charge, failure, now);
  });
  return 'given_back';
}
