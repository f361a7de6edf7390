import type { TSandboxThreeDsResponse } from '../../domain/schemas/sandbox';
import type { TAppContext } from '../context';
import type { TSandboxNotices } from './sandbox-notices';
import { AppError } from '../app-error';

/*
 * The payer's answer on the sandbox card network's 3-D Secure page (docs/sandbox.md "Notices"),
 * as the page and the dashboard's Sandbox tools give it. The network records the answer and tells
 * us by its notice (sandbox-notices.ts answerThreeDs), which the notices route applies in the
 * completion path every provider's word takes; the page then says what became of the charge.
 *
 * Which charge of ours waits at its check, and what the page says of it once answered, are our
 * side's to know, not the network's: the sandbox asks them through a port (TWaitingChallenges),
 * given where the app is composed (app.ts), so that the sandbox, an adapter, reaches into no
 * service. A card link's test charge answers for itself (services/linking/card-link-notices.ts),
 * a payment's for itself (services/payments/card-payments.ts).
 */

/** What the 3-D Secure page says of a charge once its answer was sent. */
export type TChallengeAnswer = Omit<TSandboxThreeDsResponse, 'success'>;

/** How to read what the page says of a charge once answered: PAYMENT_IN_PROGRESS while it waits. */
export type TReadChallengeAnswer = () => Promise<TChallengeAnswer>;

/**
 * Our side, as the 3-D Secure page asks it: the charge of ours waiting at its check under the
 * network's `providerReference`, as how to read what the page says of it once answered; null for
 * none.
 */
export type TWaitingChallenges = (
  providerReference: string,
) => Promise<TReadChallengeAnswer | null>;

/**
 * The payer's answer on the 3-D Secure page for a charge of ours still waiting at its check (else
 * 404, nothing sent to the network): the network records it and sends its notice, then the page's
 * answer is read from the charge. The payer's page hears it on its stream.
 */
export async function answerSandboxChallenge(
  ctx: Pick<TAppContext, 'sandbox'>,
  notices: TSandboxNotices,
  waitingChallenges: TWaitingChallenges,
  providerReference: string,
  approved: boolean,
): Promise<TChallengeAnswer> {
  const { sandbox } = ctx;
  if (!sandbox) throw new AppError('NOT_FOUND');
  const answerOf = await waitingChallenges(providerReference);
  // Answered before, or no longer waiting: the challenge is gone.
  if (!answerOf) throw new AppError('NOT_FOUND');
  if (!(await notices.answerThreeDs(sandbox.cards, providerReference, approved))) {
    throw new AppError('NOT_FOUND');
  }
  return answerOf();
}
