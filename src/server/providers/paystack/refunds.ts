import { CURRENCY_CODE } from '../../../domain/constants';
import { paystackNoAnswer, paystackPath, type TPaystackAnswer } from './paystack-calls';
import { ProviderNoAnswer } from '../provider-call';
import type { TRefundOutcome, TRefundRequest, TRefundsPort, TTransferSender } from '../payments';
import type { TPaystackRefund, TPaystackTransaction } from './paystack-api';
import { fromPaystackReference, toPaystackReference } from './paystack-references';
import { paystackBankList } from './banks';
import { isUnknownReference } from './paystack-declines';
import type { TPaystack } from './paystack-shared';

/**
 * Paystack takes no reference of ours on a refund: ours rides in its merchant note, with what it
 * is, a merchant's refund (TRefundsPort) or money given back because we did not keep it (a card
 * charge or a debit refunded whole, a transfer returned): only the first is a refund line of the
 * settlement report and a refund notice; the second marks its charge given back.
 */
type TRefundKind = 'refund' | 'giveback';
const refundNote = (kind: TRefundKind, reference: string) =>
  `oya-${kind}:${toPaystackReference(reference)}`;
/** Our reference from a refund's merchant note, when it is a refund of `kind` of ours. */
export const referenceOfNote = (kind: TRefundKind, note: string | null | undefined) =>
  note?.startsWith(`oya-${kind}:`)
    ? fromPaystackReference(note.slice(`oya-${kind}:`.length))
    : null;

/** A refund as Paystack holds it, in the port's words. */
export function refundOutcome(refund: TPaystackRefund): TRefundOutcome {
  const providerReference = String(refund.id);
  if (refund.status === 'processed') return { kind: 'processed', providerReference };
  if (refund.status === 'failed') {
    return { kind: 'failed', providerReference, reason: 'refused by Paystack' };
  }
  // needs-attention: Paystack could not pay it back on its own and waits to be told the account.
  const awaiting = refund.status === 'needs-attention' ? 'account' : null;
  return { kind: 'pending', providerReference, awaiting };
}

/** A time a refund was made within, as List Refunds narrows by it (`from`, `to`). */
type TMadeWithin = { from: Date; to: Date };

/**
 * Paystack's refunds, optionally of one transaction (`transaction`, on paystack.com's List
 * Refunds) and made within a time (`from`, `to`, in PaystackOSS/openapi's List Refunds too).
 */
export const listRefunds = (ps: TPaystack, transaction?: string, made?: TMadeWithin) =>
  ps.client.list<TPaystackRefund>('/refund', {
    ...(transaction ? { transaction } : {}),
    ...(made ? { from: made.from.toISOString(), to: made.to.toISOString() } : {}),
  });

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When Paystack made a refund we asked for first at `first` and last at `last` at the latest:
 * from the one to the other, widened by a day either side, wider than any gap between Paystack's
 * clock and ours or the zone it reads a time in. Both narrowings at once, by transaction and by
 * time: a transaction has few refunds, and were Paystack to ignore `transaction` (its published
 * List Refunds documents only `from`, `to`, `perPage` and `page`), the refunds of that window are
 * still a bounded page or few, whatever the integration's history.
 */
const madeBetween = (first: Date, last: Date): TMadeWithin => ({
  from: new Date(first.getTime() - DAY_MS),
  to: new Date(last.getTime() + DAY_MS),
});

/**
 * Our refund of `kind` asked for with `reference`, among Paystack's refunds of one transaction
 * made within a time: never a walk through every refund the integration made.
 */
async function findRefund(
  ps: TPaystack,
  kind: TRefundKind,
  reference: string,
  transaction: string,
  made: TMadeWithin,
) {
  const note = refundNote(kind, reference);
  for await (const refund of listRefunds(ps, transaction, made)) {
    if (refund.merchant_note === note) return refund;
  }
  return null;
}

/**
 * When a refund of Paystack's `transaction` can have been made: since the transaction was
 * (Verify Transaction's `created_at`), until now. Null when Paystack holds no such transaction,
 * which then has no refund either.
 */
export async function refundedWithin(
  ps: TPaystack,
  transaction: string,
): Promise<TMadeWithin | null> {
  const path = paystackPath`/transaction/verify/${transaction}`;
  const answer = await ps.client.read<TPaystackTransaction>(path);
  if (!answer.ok) {
    if (isUnknownReference(answer)) return null;
    throw paystackNoAnswer(path.path, answer.message);
  }
  const made = Date.parse(answer.data.created_at ?? '');
  if (Number.isNaN(made)) throw paystackNoAnswer(path.path, 'no created_at on the transaction');
  return madeBetween(new Date(made), ps.clock.now());
}

/**
 * The transaction Paystack gives a refund back from. A transfer is known by its one-time
 * account's reference, ours: Paystack's charge that opened the account carries it in Paystack's
 * characters.
 */
const refundedTransaction = ({
  channel,
  providerReference,
}: Pick<TRefundRequest, 'channel' | 'providerReference'>) =>
  channel === 'transfer' ? toPaystackReference(providerReference) : providerReference;

/**
 * Gives back `amount` (all when undefined) of the transaction Paystack calls `transaction`,
 * once for our `reference`: Paystack takes no reference of ours on a refund, so ours rides in
 * its merchant note, and a refund already asked for with it is answered instead of asked again.
 */
async function refundOnce(
  ps: TPaystack,
  request: {
    kind: TRefundKind;
    transaction: string;
    amount: number | undefined;
    /** The transaction's: naira unless a notice told of money in another currency. */
    currency?: string;
    reference: string;
    reason: string | null;
    /** Where the money goes if Paystack cannot pay it back on its own (a transfer's sender). */
    account?: TTransferSender | null;
    /** When an earlier ask with `reference` can have been made; null: none can have been. */
    made: TMadeWithin | null;
  },
): Promise<TRefundOutcome> {
  const { made } = request;
  const find = () =>
    made ? findRefund(ps, request.kind, request.reference, request.transaction, made) : null;
  const earlier = await find();
  if (earlier?.status === 'needs-attention' && request.account) {
    return retryWithAccount(ps, earlier, request.account);
  }
  if (earlier) return refundOutcome(earlier);
  let answer: TPaystackAnswer<TPaystackRefund>;
  try {
    answer = await ps.client.write<TPaystackRefund>('/refund', {
      transaction: request.transaction,
      ...(request.amount === undefined ? {} : { amount: request.amount }),
      currency: request.currency ?? CURRENCY_CODE,
      merchant_note: refundNote(request.kind, request.reference),
      ...(request.reason ? { customer_note: request.reason } : {}),
    });
  } catch (error) {
    if (!(error instanceof ProviderNoAnswer)) throw error;
    const asked = await find();
    if (!asked) throw error;
    return refundOutcome(asked);
  }
  if (!answer.ok) return { kind: 'failed', providerReference: null, reason: answer.message };
  return refundOutcome(answer.data);
}

/**
 * A refund Paystack holds because it could not pay it back on its own (needs-attention) is
 * retried with the account to pay (Retry Refund, POST /refund/retry_with_customer_details/{id}),
 * whose bank Paystack names by its own id. Refused (retried already, no longer waiting), it is
 * answered as Paystack now holds it; a bank Paystack does not list leaves it waiting.
 */
async function retryWithAccount(
  ps: TPaystack,
  refund: TPaystackRefund,
  account: TTransferSender,
): Promise<TRefundOutcome> {
  await paystackBankList(ps);
  const bankId = ps.bankList?.ids.get(account.institutionCode);
  if (bankId === undefined) return refundOutcome(refund);
  const path = paystackPath`/refund/retry_with_customer_details/${String(refund.id)}`;
  const retried = await ps.client.write<TPaystackRefund>(path, {
    refund_account_details: {
      currency: CURRENCY_CODE,
      account_number: account.accountNumber,
      bank_id: String(bankId),
    },
  });
  if (retried.ok) return refundOutcome(retried.data);
  const now = await ps.client.read<TPaystackRefund>(paystackPath`/refund/${String(refund.id)}`);
  return refundOutcome(now.ok ? now.data : refund);
}

/**
 * Gives money back whole or in part because we do not keep it; throws when refused. A
 * transaction Paystack's Verify does not find has no date to look for an earlier give-back by:
 * refunding it blind could give the money back twice after a lost answer, so it is thrown as no
 * answer and asked again.
 */
export async function giveBack(
  ps: TPaystack,
  request: Omit<Parameters<typeof refundOnce>[1], 'kind' | 'made'>,
): Promise<void> {
  const made = await refundedWithin(ps, request.transaction);
  if (!made) {
    throw paystackNoAnswer(
      `verify ${request.transaction} before giving it back`,
      'no such transaction found',
    );
  }
  const outcome = await refundOnce(ps, { kind: 'giveback', ...request, made });
  if (outcome.kind === 'failed') {
    throw new Error(`Paystack refused to give back ${request.transaction}: ${outcome.reason}`);
  }
}

/** The transaction a refund gave back from, as Paystack names it: its id, or its reference. */
export function refundTransactionKey(refund: TPaystackRefund): string | number | null {
  const { transaction } = refund;
  if (transaction === null || transaction === undefined)
    return refund.transaction_reference ?? null;
  if (typeof transaction === 'object') return transaction.id ?? transaction.reference ?? null;
  return transaction;
}

/** A merchant's refunds, our reference in each refund's merchant note. */
export function paystackRefunds(ps: TPaystack): TRefundsPort {
  return {
    provider: 'paystack',
    refund: async ({ reference, providerReference, channel, amount, sender, reason, createdAt }) =>
      (await ps.references.isClosed(reference))
        ? { kind: 'failed', providerReference: null, reason: 'never arrived' }
        : refundOnce(ps, {
            kind: 'refund',
            transaction: refundedTransaction({ channel, providerReference }),
            amount,
            reference,
            reason,
            account: sender,
            made: madeBetween(createdAt, ps.clock.now()),
          }),

    // Asked about only once the refund has waited minutes (the reconciler), long after its own
    // call ended (30 s at most): a refund Paystack does not list by then never arrived. Its
    // reference is closed (provider-references.ts), so no late call of any process asks for it again. It is
    // looked for among the refunds of the transaction it gave back from, made around when it was
    // asked for: the cost of a requery does not grow with the integration's history.
    async requeryRefund(request) {
      const { reference } = request;
      const made = madeBetween(request.createdAt, request.createdAt);
      const found = await findRefund(ps, 'refund', reference, refundedTransaction(request), made);
      if (found) return refundOutcome(found);
      await ps.references.close(reference);
      return { kind: 'failed', providerReference: null, reason: 'never arrived' };
    },
  };
}
