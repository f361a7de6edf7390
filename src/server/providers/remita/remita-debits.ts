import type {
  TAccountDebitOutcome,
  TDebitFailureReason,
  TDebitsPort,
  TPayoutsByProvider,
  TPayoutsPort,
  TRequeryOutcome,
} from '../payments';
import {
  koboOf,
  remitaAmount,
  remitaHash,
  remitaNoAnswer,
  type TRemitaAnswer,
  type TRemitaCalls,
} from './remita-calls';
import { ProviderNoAnswer } from '../provider-call';
import type { TProviderReferences } from '../provider-references';

/*
 * Debits on Remita's own mandates (docs/providers/remita.md "Debits"), one per our reference,
 * which is the debit's requestId at Remita:
 *
 * 1. payment/status about the requestId first: a debit Remita already has (a retry after a lost
 *    answer, a collection another runner took over) is answered from its status, never sent again.
 * 2. payment/send otherwise. Remita takes the instruction ('01') and the bank debits the account
 *    later (069 new, 070 awaiting debit, 071 at the bank, 072 pending credit: the payer was
 *    debited, 00 completed). Its status is asked at once (and as often as `pendingCheckDelaysMs`
 *    says); still pending, the debit is answered 'pending', with Remita's transactionRef in its
 *    provider reference: the caller asks again with the same reference, never sends it again, and
 *    cancels it past REMITA_DEBIT_PENDING_MS.
 * 3. A send answered with a refusal is not taken at its word: payment/status says whether Remita
 *    holds a debit by that requestId after all (then its status is the answer), or none (then the
 *    refusal stands).
 * 4. A requery of a reference Remita never had ('074') closes it: a late debit with it is refused.
 *
 * Remita finds a debit only under its mandate (every hash names the mandateId), so a requery
 * needs the debit's mandate. A debit not yet taken is cancelled by payment/stop, which names
 * Remita's transactionRef: only the answer to payment/send gives it (payment/status does not, PDF
 * section 7; payment/history lists it without our requestId, section 5), so it travels in the
 * debit's provider reference, kept on the caller's row. Remita cannot give a debit back once
 * taken: that goes back by a payout to the debited account, sent by new work's payouts provider,
 * which is kept by the give-back's reference before it is sent (provider-references.ts): the
 * give-back sent again, and every requery of it, goes to that provider alone, whatever the
 * payouts list says by then.
 */

/**
 * How long a Remita debit may wait at the bank (069/070/071) before it is cancelled. Remita's
 * documents give no figure; its banks try an instruction a few times a day (Lendsqr's
 * documentation of Remita direct debit: three to four attempts a day), and an instruction sent
 * on a Friday may wait past a weekend and a public holiday: four days.
 */
export const REMITA_DEBIT_PENDING_MS = 4 * 24 * 60 * 60 * 1_000;

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
 * Our name for a Remita debit: its mandate and our reference, all that a later call about it
 * needs, and Remita's transactionRef where the answer to its instruction gave one (what
 * payment/stop names).
 */
const debitName = (mandateId: string, reference: string, transactionRef?: string) =>
  transactionRef ? `${mandateId}:${reference}:${transactionRef}` : `${mandateId}:${reference}`;

function mandateOfDebit(providerReference: string): string {
  const at = providerReference.indexOf(':');
  if (at <= 0) throw remitaNoAnswer('payment/status', 'not the name of a Remita debit');
  return providerReference.slice(0, at);
}

/** Remita's transactionRef of a debit, where its name holds one. */
const transactionRefOf = (providerReference: string | null): string | null =>
  providerReference?.split(':')[2] || null;

/** The reference a debit given back by a payout is paid out with. */
export const giveBackReference = (reference: string) => `${reference}.back`;

/** What is kept of a give-back: the payouts provider it was sent to. */
type TGiveBack = { provider: string };

const keptGiveBack = async (references: TProviderReferences, reference: string) =>
  (await references.read('give_back', reference)) as TGiveBack | null;

/**
 * The payouts port a give-back is sent by: the provider kept for it (new work's need not be on
 * now), or new work's, kept first (two processes racing keep one), so a give-back sent again
 * never goes to a second provider.
 */
async function giveBackPayouts(
  references: TProviderReferences,
  payouts: TPayoutsByProvider,
  reference: string,
): Promise<TPayoutsPort> {
  const kept =
    (await keptGiveBack(references, reference)) ??
    (await references.keepFirst<TGiveBack>('give_back', reference, {
      provider: payouts.newWork().provider,
    }));
  return payouts.named(kept.provider);
}

/**
 * Whether the give-back was paid, as the provider it was sent to says. None kept, none was sent:
 * no provider is asked, since one asked about a reference it never had closes it, and the
 * give-back that may follow would be refused.
 */
async function givenBack(
  references: TProviderReferences,
  payouts: TPayoutsByProvider,
  reference: string,
): Promise<boolean> {
  const kept = await keptGiveBack(references, reference);
  if (!kept) return false;
  return (await payouts.named(kept.provider).requeryPayout(reference)).kind === 'taken';
}

/** What Remita's payment/status says of our debit under its mandate. */
async function debitStatus(
  client: TRemitaCalls,
  reference: string,
  mandateId: string,
): Promise<TDebitState> {
  const { merchantId, apiKey } = client.credentials;
  return debitStateOf(
    await client.call('debitStatus', {
      merchantId,
      mandateId,
      requestId: reference,
      hash: remitaHash(mandateId, merchantId, reference, apiKey),
    }),
  );
}

/** Cancels a debit not yet taken by its transactionRef (PDF section 6.2): whether Remita did. */
async function stopDebit(
  client: TRemitaCalls,
  reference: string,
  mandateId: string,
  transactionRef: string,
): Promise<boolean> {
  const { merchantId, apiKey } = client.credentials;
  const cancelled = await client.call('cancelDebit', {
    merchantId,
    mandateId,
    transactionRef,
    requestId: reference,
    hash: remitaHash(transactionRef, merchantId, reference, apiKey),
  });
  return cancelled.statuscode === '00';
}

/** TDebitsPort.cancelDebit: a debit still awaiting the bank is stopped where its name allows. */
async function cancelRemitaDebit(
  client: TRemitaCalls,
  /** The adapter's references, closed by a requery that found nothing. */
  references: TProviderReferences,
  { reference, mandateReference, providerReference }: Parameters<TDebitsPort['cancelDebit']>[0],
): Promise<TRequeryOutcome> {
  const state = await debitStatus(client, reference, mandateReference);
  const named = debitName(mandateReference, reference);
  switch (state.kind) {
    case 'none':
      await references.close(reference);
      return { kind: 'not_taken', providerReference: null, reason: 'expired' };
    case 'refused':
      return { kind: 'not_taken', providerReference: named, reason: state.reason };
    case 'taken':
      // Its payout is not asked about: a requery of a payout never sent closes its reference,
      // and the give-back that follows is paid with it.
      return {
        kind: 'taken',
        providerReference: named,
        amount: state.amount ?? 0,
        givenBack: false,
      };
    case 'pending': {
      const transactionRef = transactionRefOf(providerReference);
      // Not cancelled (no transactionRef known, or Remita refused: the bank may be debiting it
      // now): still pending, its status asked again later.
      if (
        !transactionRef ||
        !(await stopDebit(client, reference, mandateReference, transactionRef))
      ) {
        return { kind: 'pending', awaiting: null, providerReference: named };
      }
      return { kind: 'not_taken', providerReference: named, reason: 'cancelled' };
    }
  }
}

/**
 * TDebitsPort.reverseDebit: a debit not yet taken is cancelled; one taken goes back by a payout
 * to the account, since Remita offers no refund of a debit.
 */
async function reverseRemitaDebit(
  client: TRemitaCalls,
  /** The adapter's references: where the give-back's payouts provider is kept. */
  references: TProviderReferences,
  payouts: TPayoutsByProvider,
  { providerReference, reference, account }: Parameters<TDebitsPort['reverseDebit']>[0],
): Promise<{ reversed: true; payoutReference?: string }> {
  const mandateId = mandateOfDebit(providerReference);
  const state = await debitStatus(client, reference, mandateId);
  if (state.kind === 'none' || state.kind === 'refused') return { reversed: true };
  if (state.kind === 'pending') {
    const transactionRef = transactionRefOf(providerReference);
    if (!transactionRef) {
      throw remitaNoAnswer('payment/stop', `no transactionRef of ${reference} is known`);
    }
    if (!(await stopDebit(client, reference, mandateId, transactionRef))) {
      throw remitaNoAnswer('payment/stop', `the debit ${reference} was not cancelled`);
    }
    return { reversed: true };
  }
  if (!account || state.amount === null) {
    throw remitaNoAnswer('payment/stop', 'a debit taken goes back only to its account');
  }
  const back = giveBackReference(reference);
  const paid = await (
    await giveBackPayouts(references, payouts, back)
  ).payOut({
    reference: back,
    institutionCode: account.institutionCode,
    accountNumber: account.accountNumber,
    accountName: account.accountName,
    amount: state.amount,
    narration: 'Direct debit given back',
  });
  if (paid.kind !== 'succeeded') {
    throw remitaNoAnswer('payout', `the debit ${reference} was not given back`);
  }
  return { reversed: true, payoutReference: back };
}

export function remitaDebits(options: {
  client: TRemitaCalls;
  /**
   * Where the references closed, and the give-backs' payouts providers, are kept, for every
   * process alike (provider-references.ts).
   */
  references: TProviderReferences;
  payouts: TPayoutsByProvider;
  pendingCheckDelaysMs?: readonly number[];
}): TDebitsPort {
  const { client, payouts, references } = options;
  const { merchantId, serviceTypeId, apiKey } = client.credentials;
  // A debit that waits at the bank waits hours: the caller asks again later, not this call.
  const delays = options.pendingCheckDelaysMs ?? [];
  /** References asked about before Remita had them are closed: a late debit is refused. */
  const closed = (reference: string) => references.isClosed(reference);

  /**
   * Asks until the debit ended, at most as often as `delays` says; still pending, answers so,
   * named with the transactionRef its instruction's answer gave, where this call had it.
   */
  const ended = async (
    reference: string,
    mandateId: string,
    transactionRef?: string,
  ): Promise<TAccountDebitOutcome> => {
    for (const delay of [0, ...delays]) {
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      const state = await debitStatus(client, reference, mandateId);
      const providerReference = debitName(mandateId, reference);
      if (state.kind === 'taken') return { kind: 'succeeded', providerReference };
      if (state.kind === 'refused') {
        return { kind: 'failed', providerReference, reason: state.reason };
      }
    }
    return {
      kind: 'pending',
      providerReference: debitName(mandateId, reference, transactionRef),
      pendingAtMostMs: REMITA_DEBIT_PENDING_MS,
    };
  };

  return {
    provider: 'remita',
    // Never asked: a Remita mandate is set up through the mandates capability (TOwnMandates).
    debitMandates: { kind: 'test_transfer' },

    async debitAccount({ reference, mandateReference, institutionCode, accountNumber, amount }) {
      if (await closed(reference)) {
        return { kind: 'failed', providerReference: null, reason: 'expired' };
      }
      const before = await debitStatus(client, reference, mandateReference);
      if (before.kind !== 'none') return ended(reference, mandateReference);
      // A requery that answered 'not taken' while the status was asked closed the reference: it
      // is not sent after that answer.
      if (await closed(reference)) {
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
        if (!(error instanceof ProviderNoAnswer)) throw error;
        // Sent or not: its status says, now or at the caller's next try.
        return ended(reference, mandateReference);
      }
      const transactionRef =
        typeof answer.transactionRef === 'string' ? answer.transactionRef : undefined;
      if (answer.statuscode === '01' || answer.statuscode === '00') {
        return ended(reference, mandateReference, transactionRef);
      }
      // A refusal's words are not the debit's fate: Remita may hold one by this requestId.
      if ((await debitStatus(client, reference, mandateReference)).kind !== 'none') {
        return ended(reference, mandateReference, transactionRef);
      }
      const refused = debitStateOf(answer);
      const reason = refused.kind === 'refused' ? refused.reason : 'account_not_found';
      return { kind: 'failed', providerReference: null, reason };
    },

    async requeryDebit(reference, mandateReference): Promise<TRequeryOutcome> {
      if (!mandateReference) {
        throw remitaNoAnswer('payment/status', 'a debit is found only under its mandate');
      }
      const state = await debitStatus(client, reference, mandateReference);
      const providerReference = debitName(mandateReference, reference);
      switch (state.kind) {
        case 'none':
          await references.close(reference);
          return { kind: 'not_taken', providerReference: null, reason: 'expired' };
        case 'pending':
          return { kind: 'pending', awaiting: null, providerReference };
        case 'refused':
          return { kind: 'not_taken', providerReference, reason: state.reason };
        case 'taken':
          return {
            kind: 'taken',
            providerReference,
            amount: state.amount ?? 0,
            givenBack: await givenBack(references, payouts, giveBackReference(reference)),
          };
      }
    },

    cancelDebit: (request) => cancelRemitaDebit(client, references, request),

    reverseDebit: (request) => reverseRemitaDebit(client, references, payouts, request),
  };
}
