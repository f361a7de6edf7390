import type {
  TAccountDebitOutcome,
  TDebitFailureReason,
  TDebitsPort,
  TPayoutsPort,
  TRequeryOutcome,
} from '../payments';
import {
  koboOf,
  remitaAmount,
  remitaHash,
  RemitaNoAnswer,
  type TRemitaAnswer,
  type TRemitaClient,
} from './remita-client';

/*
 * Debits on Remita's own mandates (docs/providers/remita.md "Debits"), one per our reference,
 * which is the debit's requestId at Remita:
 *
 * 1. payment/status about the requestId first: a debit Remita already has (a retry after a lost
 *    answer, a collection another runner took over) is answered from its status, never sent again.
 * 2. payment/send otherwise. Remita takes the instruction ('01') and the bank debits the account
 *    later (069 new, 070 awaiting debit, 071 at the bank, 072 pending credit: the payer was
 *    debited, 00 completed). Its status is asked a few times; still pending, the call throws, and
 *    the caller's next try asks again with the same reference.
 * 3. A requery of a reference Remita never had ('074') closes it: a late debit with it is refused.
 *
 * Remita finds a debit only under its mandate (every hash names the mandateId), so a requery
 * needs the debit's mandate. Remita cannot give a debit back once taken: that goes back by a
 * payout to the debited account; one not yet taken is cancelled (payment/stop).
 */

/** What Remita's status of a debit means. */
type TDebitState =
  | { kind: 'none' }
  | { kind: 'pending' }
  | { kind: 'taken'; amount: number | null }
  | { kind: 'refused'; reason: TDebitFailureReason; words: string };

const PENDING = new Set(['01', '069', '070', '071']);
const TAKEN = new Set(['00', '072']);
/** Invalid, not due, expired, deactivated mandate; a mandate type that takes no debit. */
const MANDATE_REFUSALS = new Set(['061', '062', '063', '066', '067', '073']);

function debitStateOf(answer: TRemitaAnswer): TDebitState {
  const code = answer.statuscode;
  if (code === '074') return { kind: 'none' };
  if (PENDING.has(code)) return { kind: 'pending' };
  if (TAKEN.has(code)) return { kind: 'taken', amount: koboOf(answer.amount) };
  if (MANDATE_REFUSALS.has(code)) {
    return { kind: 'refused', reason: 'account_not_found', words: answer.status };
  }
  // Remita's documents list no code for a debit the bank refused: its words say why.
  const reason = /insufficient|fund/i.test(answer.status)
    ? 'insufficient_funds'
    : 'account_not_found';
  return { kind: 'refused', reason, words: answer.status };
}

/**
 * Our name for a Remita debit: its mandate and our reference, all that every later call about it
 * needs (Remita's own transactionRef comes only in the answer to the debit's instruction).
 */
const debitName = (mandateId: string, reference: string) => `${mandateId}:${reference}`;

function mandateOfDebit(providerReference: string): string {
  const at = providerReference.indexOf(':');
  if (at <= 0) throw new RemitaNoAnswer('payment/status', 'not the name of a Remita debit');
  return providerReference.slice(0, at);
}

/** The reference a debit given back by a payout is paid out with. */
export const giveBackReference = (reference: string) => `${reference}.back`;

export function remitaDebits(options: {
  client: TRemitaClient;
  payouts: TPayoutsPort;
  pendingCheckDelaysMs?: readonly number[];
}): TDebitsPort {
  const { client, payouts } = options;
  const { merchantId, serviceTypeId, apiKey } = client.credentials;
  const delays = options.pendingCheckDelaysMs ?? [1_000, 3_000, 6_000];
  /** References asked about before Remita had them: closed, a late debit is refused. */
  const closed = new Set<string>();
  /** Remita's transactionRef of each debit sent from this process, for its cancellation. */
  const transactionRefs = new Map<string, string>();

  const status = async (reference: string, mandateId: string): Promise<TDebitState> =>
    debitStateOf(
      await client.call('debitStatus', {
        merchantId,
        mandateId,
        requestId: reference,
        hash: remitaHash(mandateId, merchantId, reference, apiKey),
      }),
    );

  /** Asks until the debit ended, at most as often as `delays` says; still pending, throws. */
  const ended = async (reference: string, mandateId: string): Promise<TAccountDebitOutcome> => {
    for (const delay of [0, ...delays]) {
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      const state = await status(reference, mandateId);
      const providerReference = debitName(mandateId, reference);
      if (state.kind === 'taken') return { kind: 'succeeded', providerReference };
      if (state.kind === 'refused') {
        return { kind: 'failed', providerReference, reason: state.reason };
      }
    }
    throw new RemitaNoAnswer('payment/status', `the debit ${reference} has not ended yet`);
  };

  return {
    provider: 'remita',
    // Never asked: a Remita mandate is set up through the mandates capability (TOwnMandates).
    debitMandates: { kind: 'test_transfer' },

    async debitAccount({ reference, mandateReference, institutionCode, accountNumber, amount }) {
      if (closed.has(reference)) {
        return { kind: 'failed', providerReference: null, reason: 'expired' };
      }
      const before = await status(reference, mandateReference);
      if (before.kind !== 'none') return ended(reference, mandateReference);
      // A requery that answered 'not taken' while the status was asked closed the reference: it
      // is not sent after that answer.
      if (closed.has(reference)) {
        return { kind: 'failed', providerReference: null, reason: 'expired' };
      }
      const totalAmount = remitaAmount(amount);
      let answer: TRemitaAnswer;
      try {
        answer = await client.call('debit', {
          merchantId,
          serviceTypeId,
          hash: remitaHash(merchantId, serviceTypeId, reference, totalAmount, apiKey),
          requestId: reference,
          totalAmount,
          mandateId: mandateReference,
          fundingAccount: accountNumber,
          fundingBankCode: institutionCode,
        });
      } catch (error) {
        if (!(error instanceof RemitaNoAnswer)) throw error;
        // Sent or not: its status says, now or at the caller's next try.
        return ended(reference, mandateReference);
      }
      if (typeof answer.transactionRef === 'string') {
        transactionRefs.set(reference, answer.transactionRef);
      }
      if (answer.statuscode === '01' || answer.statuscode === '00') {
        return ended(reference, mandateReference);
      }
      const refused = debitStateOf(answer);
      const reason = refused.kind === 'refused' ? refused.reason : 'account_not_found';
      return { kind: 'failed', providerReference: null, reason };
    },

    async requeryDebit(reference, mandateReference): Promise<TRequeryOutcome> {
      if (!mandateReference) {
        throw new RemitaNoAnswer('payment/status', 'a debit is found only under its mandate');
      }
      const state = await status(reference, mandateReference);
      const providerReference = debitName(mandateReference, reference);
      switch (state.kind) {
        case 'none':
          closed.add(reference);
          return { kind: 'not_taken', providerReference: null, reason: 'expired' };
        case 'pending':
          return { kind: 'pending', awaiting: null, providerReference };
        case 'refused':
          return { kind: 'not_taken', providerReference, reason: state.reason };
        case 'taken': {
          const back = await payouts.requeryPayout(giveBackReference(reference));
          return {
            kind: 'taken',
            providerReference,
            amount: state.amount ?? 0,
            givenBack: back.kind === 'taken',
          };
        }
      }
    },

    async reverseDebit({ providerReference, reference, account }) {
      const mandateId = mandateOfDebit(providerReference);
      const state = await status(reference, mandateId);
      if (state.kind === 'none' || state.kind === 'refused') return { reversed: true };
      if (state.kind === 'pending') {
        // Not yet debited: Remita cancels the instruction by its transactionRef (PDF section 6.2).
        const transactionRef = transactionRefs.get(reference);
        if (!transactionRef) {
          throw new RemitaNoAnswer('payment/stop', `no transactionRef of ${reference} is known`);
        }
        const cancelled = await client.call('cancelDebit', {
          merchantId,
          mandateId,
          transactionRef,
          requestId: reference,
          hash: remitaHash(transactionRef, merchantId, reference, apiKey),
        });
        if (cancelled.statuscode !== '00') {
          throw new RemitaNoAnswer('payment/stop', `not cancelled (${cancelled.statuscode})`);
        }
        return { reversed: true };
      }
      // Taken: Remita offers no refund of a debit, so it goes back by a payout to the account.
      if (!account || state.amount === null) {
        throw new RemitaNoAnswer('payment/stop', 'a debit taken goes back only to its account');
      }
      const paid = await payouts.payOut({
        reference: giveBackReference(reference),
        institutionCode: account.institutionCode,
        accountNumber: account.accountNumber,
        accountName: account.accountName,
        amount: state.amount,
        narration: 'Direct debit given back',
      });
      if (paid.kind !== 'succeeded') {
        throw new RemitaNoAnswer('payout', `the debit ${reference} was not given back`);
      }
      return { reversed: true };
    },
  };
}
