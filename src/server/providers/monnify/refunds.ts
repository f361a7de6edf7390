import type { TRefundOutcome, TRefundRequest, TRefundsPort, TTransferSender } from '../payments';
import type { TMonnifyRefund } from './monnify-api';
import { MonnifyNoAnswer, ProviderNoAnswer, segment, type TMonnifyAnswer } from './monnify-client';
import { isNotFound, nairaOf, transactionOf, type TMonnify } from './monnify-shared';

/*
 * Refunds (refunds/initiate-refund, read by refundReference): Monnify takes our reference as the
 * refund's own (refundReference), so a refund asked for again, or whose answer was lost, is read
 * back by it, never asked for twice. A merchant's refund carries our refund's reference as it is;
 * money given back because we did not keep it (a card charge refunded whole, a transfer returned)
 * carries GIVE_BACK_PREFIX, so the settlement report tells one from the other.
 */

export const GIVE_BACK_PREFIX = 'gb-';

/** A give-back's refundReference: ours, in the letters Monnify's references take. */
export const giveBackReference = (reference: string) =>
  `${GIVE_BACK_PREFIX}${reference.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** A refund as Monnify holds it, in the port's words. */
export function refundOutcome(refund: TMonnifyRefund): TRefundOutcome {
  const providerReference = refund.refundReference;
  if (refund.refundStatus === 'COMPLETED') return { kind: 'processed', providerReference };
  if (refund.refundStatus === 'FAILED') {
    return { kind: 'failed', providerReference, reason: refund.comment || 'refused by Monnify' };
  }
  return { kind: 'pending', providerReference, awaiting: null };
}

/** Monnify's record of a refund by its reference; null when it holds none. */
export async function refundOf(
  mf: TMonnify,
  refundReference: string,
): Promise<TMonnifyRefund | null> {
  const answer = await mf.client.read<TMonnifyRefund>(
    `/api/v1/refunds/${segment(refundReference)}`,
  );
  if (answer.ok) return answer.body;
  if (isNotFound(answer)) return null;
  throw new MonnifyNoAnswer(`the refund ${refundReference}`, answer.message);
}

/** initiate-refund, once per refundReference: an earlier ask is read back instead. */
async function refundOnce(
  mf: TMonnify,
  request: {
    transactionReference: string;
    refundReference: string;
    amount: number;
    reason: string;
    /** Where the money goes instead of the account the payment came from. */
    account?: TTransferSender | null;
  },
): Promise<TRefundOutcome> {
  const earlier = await refundOf(mf, request.refundReference);
  if (earlier) return refundOutcome(earlier);
  let answer: TMonnifyAnswer<TMonnifyRefund>;
  try {
    answer = await mf.client.write<TMonnifyRefund>('/api/v1/refunds/initiate-refund', {
      transactionReference: request.transactionReference,
      refundReference: request.refundReference,
      refundAmount: nairaOf(request.amount),
      refundReason: request.reason.slice(0, 64),
      // Monnify's narration on the payer's bank statement: 16 characters at most.
      customerNote: 'Oya Money refund',
      ...(request.account
        ? {
            destinationAccountNumber: request.account.accountNumber,
            destinationAccountBankCode: request.account.institutionCode,
          }
        : {}),
    });
  } catch (error) {
    if (!(error instanceof ProviderNoAnswer)) throw error;
    const asked = await refundOf(mf, request.refundReference);
    if (!asked) throw error;
    return refundOutcome(asked);
  }
  if (answer.ok) return refundOutcome(answer.body);
  // Refused as a repeat of a refund Monnify holds: that refund.
  const held = await refundOf(mf, request.refundReference);
  if (held) return refundOutcome(held);
  return { kind: 'failed', providerReference: null, reason: answer.message };
}

/** Gives back money we do not keep; throws when Monnify refused. */
export async function giveBack(
  mf: TMonnify,
  request: { transactionReference: string; amount: number; reference: string; reason: string },
): Promise<void> {
  const outcome = await refundOnce(mf, {
    transactionReference: request.transactionReference,
    refundReference: giveBackReference(request.reference),
    amount: request.amount,
    reason: request.reason,
  });
  if (outcome.kind === 'failed') {
    throw new Error(
      `Monnify refused to give back ${request.transactionReference}: ${outcome.reason}`,
    );
  }
}

/**
 * Monnify's transaction a refund gives back from. A transfer is known by its one-time account's
 * reference, ours (the transaction's paymentReference).
 */
async function refundedTransaction(
  mf: TMonnify,
  { channel, providerReference }: Pick<TRefundRequest, 'channel' | 'providerReference'>,
): Promise<string | null> {
  if (channel !== 'transfer') return providerReference;
  return (await transactionOf(mf, providerReference))?.transactionReference ?? null;
}

export function monnifyRefunds(mf: TMonnify): TRefundsPort {
  return {
    provider: 'monnify',
    async refund({ reference, providerReference, channel, amount, sender, reason }) {
      if (await mf.references.isClosed(reference)) {
        return { kind: 'failed', providerReference: null, reason: 'never arrived' };
      }
      const transactionReference = await refundedTransaction(mf, { channel, providerReference });
      if (!transactionReference) {
        return { kind: 'failed', providerReference: null, reason: 'no such payment at Monnify' };
      }
      return refundOnce(mf, {
        transactionReference,
        refundReference: reference,
        amount,
        reason: reason ?? 'Refund',
        account: channel === 'transfer' ? sender : null,
      });
    },

    // Read by its own reference: a refund Monnify does not hold by the time it is asked about
    // (minutes after its call) never arrived, and its reference is closed, for every process.
    async requeryRefund({ reference }) {
      const found = await refundOf(mf, reference);
      if (found) return refundOutcome(found);
      await mf.references.close(reference);
      return { kind: 'failed', providerReference: null, reason: 'never arrived' };
    },
  };
}
