// A card link's test charge (spec §9): the card network that made it, its booking and refund in
// the ledger, the link's card-linking events, how a link ends, and the network's last word on a
// charge asked about after its answer was lost (docs/accounts.md "Linking by card").
import { and, eq, isNull } from 'drizzle-orm';
import { errorStatus } from '../../../domain/errors';
import type { TCardLinkingEvent } from '../../../domain/schemas/card';
import type { TAppContext } from '../../context';
import type { TDb } from '../../db/database';
import { accountLinks } from '../../db/schema';
import { appendEvent, eventStreams } from '../../events/event-log';
import type { TCardsPort, TNoticedCharge, TRequeryOutcome } from '../../providers/payments';
import { abandonLink, type TLinkRow } from './link-lifecycle';
import { inLinkChargeStages } from './link-charge-moves';
import { AppError } from '../../app-error';
import { book, ledgerAccount } from '../payments/ledger';

export type TCardLinkContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config' | 'jobs'>;

/** What the card network's statement shows for a link's test charge. */
export const TEST_CHARGE_NARRATION = 'Card linking test charge';

/** The link an outcome is recorded for: who, which account, how much, the card's expiry. */
export type TChargingLink = Pick<
  TLinkRow,
  | 'id'
  | 'payerId'
  | 'accountId'
  | 'testAmount'
  | 'cardExpiryMonth'
  | 'cardExpiryYear'
  | 'chargeProvider'
>;

/**
 * The cards port of the provider that made a link's test charge, as its row names it: every later
 * call about the charge (its OTP, requery, refund) goes there, whichever provider takes new cards
 * now. A provider this server no longer runs is ProviderNotConfigured, never another's port.
 */
export function chargeCardsOf(
  ctx: Pick<TAppContext, 'providers'>,
  link: Pick<TLinkRow, 'id' | 'chargeProvider'>,
): TCardsPort {
  if (link.chargeProvider === null) {
    throw new Error(`Card link ${link.id} names no provider of its test charge`);
  }
  return ctx.providers.registry.portOf(link.chargeProvider, 'cards');
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
 * Records, inside `tx`, that the network's last word on a card link's test charge is had: never
 * taken, or taken and given back. Until then a link that ended is asked about by the reconciler
 * (lost-link-charges.ts), since its money may still be out.
 */
export async function markChargeSettled(tx: TDb, linkId: string, now: Date): Promise<void> {
  await tx
    .update(accountLinks)
    .set({ chargeSettledAt: now })
    .where(and(eq(accountLinks.id, linkId), isNull(accountLinks.chargeSettledAt)));
}

/**
 * Ends the link with `failure`, its events in the same transaction; false if it had ended.
 * `charge` says whether the network's last word on its test charge came with the end (settled:
 * nothing taken, or given back) or not (the reconciler asks about it later).
 */
export async function endLink(
  db: TDb,
  link: TChargingLink,
  failure: AppError,
  now: Date,
  charge: 'settled' | 'unsettled',
) {
  return db.transaction(async (tx) => {
    const ended = await abandonLink(tx, link.id, now, failure.message);
    if (ended) await emitCardLinking(tx, link.payerId, failureEvent(link.id, failure));
    if (charge === 'settled') await markChargeSettled(tx, link.id, now);
    return ended;
  });
}

export const amountOf = (link: TChargingLink): number => {
  if (link.testAmount === null) throw new Error(`Card link ${link.id} has no test amount`);
  return link.testAmount;
};

/**
 * Books the test charge (the card's money held by the provider) and, once the provider refunded
 * it, its refund, the charge then settled: the two net to zero on every account. Each is booked
 * once by its kind and the link's id; answers whether the refund was booked now (false when it
 * was before, or not given).
 */
export async function bookTestCharge(
  tx: TDb,
  link: TChargingLink,
  refunded: boolean,
  now: Date,
): Promise<boolean> {
  const amount = amountOf(link);
  const card = ledgerAccount.payerSource('card');
  const held = ledgerAccount.linkTestCharges();
  const movement = { reference: link.id, paymentId: null, attemptId: null } as const;
  await book(tx, {
    ...movement,
    kind: 'link_test_charge',
    narration: TEST_CHARGE_NARRATION,
    entries: [
      { account: card, amount: -amount },
      { account: held, amount },
    ],
  });
  if (!refunded) return false;
  await markChargeSettled(tx, link.id, now);
  return book(tx, {
    ...movement,
    kind: 'test_charge_refund',
    narration: `${TEST_CHARGE_NARRATION} refunded`,
    entries: [
      { account: held, amount: -amount },
      { account: card, amount },
    ],
  });
}

/** A card link whose test charge waits at its 3-D Secure check. */
export const atThreeDsCheck = and(
  eq(accountLinks.route, 'card'),
  eq(accountLinks.state, 'created'),
  inLinkChargeStages(['awaiting_3ds']),
);

/**
 * What the provider that made a link's test charge says of it (by the link's id); null when it
 * did not answer, or is not run now (asked again at the next run).
 */
export async function askAboutLinkCharge(
  ctx: Pick<TAppContext, 'providers'>,
  link: Pick<TLinkRow, 'id' | 'chargeProvider'>,
): Promise<TNoticedCharge | null> {
  try {
    return await chargeCardsOf(ctx, link).requeryCardCharge(link.id);
  } catch {
    // Not answered now: the link stays where it is, to be asked about again.
    return null;
  }
}

/**
 * The network's last word on a card link's test charge, whoever asked (the reconciler, a new
 * attempt): taken, the money goes back to the card (the network's token for it is not at hand, so
 * the card cannot be saved), refunded first and then booked in and out; never taken, nothing to
 * give back. Either way the link, if still open, ends 'Failed to link card', for the payer to link
 * again, and its charge is settled. The refund is one per reference however often asked
 * (TCardsPort.refundCard) and each booking once by the link's id, so two askers at once give back
 * once; a refund that fails throws, the charge left unsettled for the reconciler's next run.
 */
export async function settleLinkCharge(
  ctx: Pick<TAppContext, 'db' | 'clock' | 'providers'>,
  link: TChargingLink,
  word: Exclude<TRequeryOutcome, { kind: 'pending' }>,
): Promise<'given_back' | 'failed'> {
  const failure = new AppError('CARD_LINK_FAILED');
  if (word.kind === 'not_taken') {
    await endLink(ctx.db, link, failure, ctx.clock.now(), 'settled');
    return 'failed';
  }
  if (!word.givenBack) {
    await chargeCardsOf(ctx, link).refundCard({
      providerReference: word.providerReference,
      amount: word.amount,
      reference: link.id,
    });
  }
  await ctx.db.transaction(async (tx) => {
    const now = ctx.clock.now();
    await bookTestCharge(tx, link, true, now);
    await endLink(tx, link, failure, now, 'settled');
  });
  return 'given_back';
}
