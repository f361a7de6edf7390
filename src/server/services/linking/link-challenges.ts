import { and, lte } from 'drizzle-orm';
import { THREE_DS_CHALLENGE_MS } from '../../../domain/payment-attempts';
import type { TAppContext } from '../../context';
import { paymentAttempts } from '../../db/schema';
import { THREE_DS_ASK_AFTER_MS } from '../payments/card-payments';
import { askAboutLinkCharge, atThreeDsCheck } from './card-link-charges';
import { endThreeDsLink } from './card-link-notices';

/*
 * Card links whose test charge waits at its 3-D Secure check (docs/accounts.md "Linking by card"),
 * swept by the reconciler's 3-D Secure step as payments' charges are (card-payments.ts
 * expireThreeDsChallenges). The network may have recorded the payer's answer while its notice
 * never reached us (a process that died between the two), and a payer may never answer: either
 * way the link would wait with the money perhaps taken. So a link waiting at its check longer
 * than THREE_DS_ASK_AFTER_MS (since its charge's last change, when it came to the check) is asked about,
 * its charge's reference being the link's id, and ended by the answer in the notice's own path
 * (card-link-notices.ts endThreeDsLink): taken, refunded and linked, or failed with its money given
 * back; not taken, or still waiting past THREE_DS_CHALLENGE_MS, failed with THREE_DS_FAILED (a
 * payer who approves at the network after that finds the link ended: the money is given back when
 * the approval's word arrives, card-link-notices.ts giveBackAfterEnd). A network that does not
 * answer leaves the link at its check for the next run.
 */

type TLinkChallengeContext = Pick<TAppContext, 'db' | 'clock' | 'providers' | 'config' | 'jobs'>;

/** Card links waiting at their 3-D Secure check since THREE_DS_ASK_AFTER_MS ago or longer. */
function linksToAsk(ctx: TLinkChallengeContext, now: Date) {
  return ctx.db
    .select({
      id: paymentAttempts.id,
      provider: paymentAttempts.provider,
      waitingSince: paymentAttempts.updatedAt,
    })
    .from(paymentAttempts)
    .where(
      and(
        atThreeDsCheck,
        lte(paymentAttempts.updatedAt, new Date(now.getTime() - THREE_DS_ASK_AFTER_MS)),
      ),
    )
    .orderBy(paymentAttempts.updatedAt);
}

/**
 * The sweep: every card link waiting at its check past THREE_DS_ASK_AFTER_MS asked about, and
 * ended once the network says how its check ended or its time ran out. Answers how many ended,
 * and what could not be settled (a link's own fault stops none of the others).
 */
export async function expireThreeDsLinks(
  ctx: TLinkChallengeContext,
): Promise<{ ended: number; errors: unknown[] }> {
  const now = ctx.clock.now();
  const expiredBefore = now.getTime() - THREE_DS_CHALLENGE_MS;
  let ended = 0;
  const errors: unknown[] = [];
  for (const link of await linksToAsk(ctx, now)) {
    const word = await askAboutLinkCharge(ctx, link);
    const expired = link.waitingSince.getTime() <= expiredBefore;
    // Not answered, or still waiting within its time: asked again at the next run.
    if (!word || (word.kind === 'pending' && !expired)) continue;
    try {
      if ((await endThreeDsLink(ctx, link.id, word)) === 'ended') ended += 1;
    } catch (error) {
      errors.push(error);
    }
  }
  return { ended, errors };
}
