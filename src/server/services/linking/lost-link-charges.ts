import { and, eq, lt } from 'drizzle-orm';
import type { TAppContext } from '../../context';
import { accountLinks } from '../../db/schema';
import { claimRows } from '../../jobs/claim-rows';
import { AppError } from '../app-error';
import { drainClaims, RECONCILE_BATCH } from '../payments/lost-attempts';
import { bookTestCharge, endLink, type TChargingLink } from './card-links';

/*
 * Card links whose test charge's answer was lost (docs/accounts.md "Linking by card";
 * docs/payments.md "Reconciliation"): a process that died while the card network had the test
 * charge leaves the link 'charging'. Past RECONCILE_AFTER_MS the reconciler claims it (its updated
 * time moved on, in one statement) and asks the network about the charge's reference (the link's
 * id). Taken, the money goes back to the card (the network's token for it was lost with the
 * answer, so the card cannot be saved): refunded, booked in and out, and the link ends 'Failed to
 * link card', for the payer to link again. Never taken, the link ends the same way. Waiting for
 * the payer's OTP or 3-D Secure check, the link goes back to that step.
 */

type TLostLinkContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config'>;

async function claimLostLinks(ctx: TLostLinkContext) {
  const now = ctx.clock.now();
  const due = and(
    eq(accountLinks.route, 'card'),
    eq(accountLinks.state, 'created'),
    eq(accountLinks.chargeStage, 'charging'),
    lt(accountLinks.updatedAt, new Date(now.getTime() - ctx.config.reconcileAfterMs)),
  );
  return claimRows(ctx.db, accountLinks, {
    due,
    oldestBy: accountLinks.updatedAt,
    limit: RECONCILE_BATCH,
    set: { updatedAt: now },
  });
}

/** Settles one claimed link from the network's record of its test charge. */
async function settleLostLink(
  ctx: TLostLinkContext,
  link: TChargingLink,
): Promise<'given_back' | 'failed' | 'pending'> {
  const answer = await ctx.providers.payments.cards.requeryCardCharge(link.id);
  const failure = new AppError('CARD_LINK_FAILED');
  switch (answer.kind) {
    case 'taken':
      if (!answer.givenBack) {
        await ctx.providers.payments.cards.refundCard({
          providerReference: answer.providerReference,
          amount: answer.amount,
          reference: link.id,
        });
      }
      await ctx.db.transaction(async (tx) => {
        await bookTestCharge(tx, link, true);
        await endLink(tx, link, failure, ctx.clock.now());
      });
      return 'given_back';
    case 'not_taken':
      await endLink(ctx.db, link, failure, ctx.clock.now());
      return 'failed';
    case 'pending':
      // A link's charge carried its PIN: only an OTP or a 3-D Secure check waits for the payer.
      if ((answer.awaiting === 'otp' || answer.awaiting === '3ds') && answer.providerReference) {
        await ctx.db
          .update(accountLinks)
          .set({
            chargeStage: answer.awaiting === 'otp' ? 'awaiting_otp' : 'awaiting_3ds',
            providerReference: answer.providerReference,
            updatedAt: ctx.clock.now(),
          })
          .where(and(eq(accountLinks.id, link.id), eq(accountLinks.chargeStage, 'charging')));
      }
      return 'pending';
  }
}

/** Every card link left charging past the age, settled from the network's record. */
export function reconcileLostLinkCharges(ctx: TLostLinkContext) {
  return drainClaims(
    () => claimLostLinks(ctx),
    (link) => settleLostLink(ctx, link),
  );
}
