import { detectCardBrand, type TCardBrand } from '../../../domain/card-brand';
import { CURRENCY_CODE } from '../../../domain/constants';
import type { TClock } from '../../clock';
import type {
  TAccountDebitOutcome,
  TBank,
  TCardChargeOutcome,
  TCardSummary,
  TPayoutOutcome,
  TPaymentProviders,
  TProviderCapability,
  TProviderNotice,
  TRefundOutcome,
  TRequeryOutcome,
  TSettlementLine,
  TTransferAccount,
  TTransferSender,
} from '../payments';
import type {
  TPaystackAuthorization,
  TPaystackBank,
  TPaystackCharge,
  TPaystackCustomer,
  TPaystackMandate,
  TPaystackMandateOpened,
  TPaystackRecipient,
  TPaystackRefund,
  TPaystackResolvedAccount,
  TPaystackTransaction,
  TPaystackTransfer,
} from './paystack-api';
import {
  PaystackNoAnswer,
  paystackClient,
  segment,
  type TPaystackAnswer,
  type TPaystackClientOptions,
} from './paystack-client';
import {
  cardDeclineReason,
  debitDeclineReason,
  isDuplicateReference,
  isUnknownReference,
} from './paystack-declines';
import { ourChannel, readVerifiedPaystackNotice, transactionNotice } from './paystack-notices';
import { fromPaystackReference, toPaystackReference } from './paystack-references';
import { isPaystackSignature } from './paystack-signature';

/*
 * The Paystack adapter of the PaymentProvider port (docs/providers/paystack.md). It offers the
 * capabilities Paystack has: cards (the Charge API: PIN, OTP, 3-D Secure, saved cards by
 * authorisation code), banks (List Banks, Resolve Account: no BVN), one-time accounts (Pay with
 * Transfer), debits on an authorisation, payouts (Transfers), refunds, its notices (webhooks)
 * and a settlement report (List Transactions, Transfers and Refunds). A BVN registry, the
 * alternate service and paper mandates, and a card terminal's acquirer are not Paystack's: the
 * composition root (context.ts) says where those come from.
 *
 * Every call carries our reference, written in Paystack's characters (paystack-references.ts),
 * and amounts in kobo. A call that moves money and gets no answer (paystack-client.ts) is asked
 * about by its reference, once, at once; if Paystack still cannot say, it is thrown as
 * PaystackNoAnswer, which leaves the attempt to the reconciler's requery, and nothing charges
 * that reference or its payment again meanwhile.
 */

/**
 * The email Paystack requires with every charge. We know payers by phone, never by email: a card
 * charge, which may come from a payer who never signed in, is made as this one customer, at a
 * reserved domain (RFC 2606) no receipt ever reaches.
 */
export const PAYSTACK_PAYER_EMAIL = 'payers@example.com';

/** Where a signed-in payer's own Paystack customer is addressed (their mandates, their BVN check). */
const PAYER_EMAIL_DOMAIN = 'payers.example.com';

/**
 * A signed-in payer's Paystack customer, one per payer: its mandates are charged as it, and
 * Paystack's customer validation checks their BVN against the account as it. Its email names
 * our payer, so a notice about the customer names them back (payerOfPaystackEmail).
 */
export const paystackPayerEmail = (payerId: string) => `${payerId}@${PAYER_EMAIL_DOMAIN}`;

/** Our payer a customer's email names, or null for another customer. */
export function payerOfPaystackEmail(email: string): string | null {
  const suffix = `@${PAYER_EMAIL_DOMAIN}`;
  if (!email.endsWith(suffix)) return null;
  const payerId = email.slice(0, -suffix.length);
  return /^[A-Za-z0-9_-]+$/.test(payerId) ? payerId : null;
}

/** How long a one-time account takes money at most (the spec's 30 minutes; Paystack's too). */
export const PAYSTACK_TRANSFER_ACCOUNT_MS = 30 * 60_000;

/** A requery of a reference Paystack never saw: closed (the port's 'not_taken' is final). */
const NEVER_ARRIVED = {
  kind: 'not_taken',
  providerReference: null,
  reason: 'never arrived',
} as const;

/**
 * Whether Paystack took the money in naira. Our calls name no currency, so Paystack charges in
 * the integration's own: money it took in another (or names none for) pays nothing here. The
 * payer is told it failed, and Paystack's charge.success of it gives it back (paystack-notices.ts).
 */
const takenInNaira = (record: { currency?: string }) => record.currency === CURRENCY_CODE;

/** What a charge Paystack has not decided waits for from the payer, by its status. */
const AWAITING_OF_STATUS: Partial<Record<string, 'pin' | 'otp' | '3ds'>> = {
  send_pin: 'pin',
  send_otp: 'otp',
  open_url: '3ds',
};

/** How long the bank list is kept before it is asked for again. */
const BANK_LIST_TTL_MS = 6 * 60 * 60_000;

/** The words the payer reads at an OTP step when Paystack gives none. */
const OTP_PROMPT = 'Enter the OTP sent to your phone';
const THREE_DS_PROMPT = "Complete the check on your bank's page";

export type TPaystackProviderOptions = Pick<
  TPaystackClientOptions,
  'secretKey' | 'baseUrl' | 'timeoutMs' | 'readRetryDelaysMs'
> & {
  clock: TClock;
  /**
   * A charge, debit or payout Paystack answers 'pending' is asked about by reference after each
   * of these pauses (Paystack asks for 10 s or more); still pending after the last, it is left to
   * the reconciler.
   */
  pendingCheckDelaysMs?: readonly number[];
};

/** The port's capabilities Paystack offers (context.ts finds the others elsewhere, or stops). */
export const PAYSTACK_CAPABILITIES = [
  'cards',
  'banks',
  'transfersIn',
  'debits',
  'payouts',
  'refunds',
  'settlement',
  'notices',
] as const satisfies readonly TProviderCapability[];

/** The adapter: the capabilities it offers, each under Paystack's name. */
export type TPaystackProvider = Pick<TPaymentProviders, (typeof PAYSTACK_CAPABILITIES)[number]>;

const PAYSTACK_BRANDS: Record<string, TCardBrand> = {
  visa: 'visa',
  mastercard: 'mastercard',
  verve: 'verve',
};

/**
 * The card's brand: Paystack's word for it where it gave one, else the spec's rules on the
 * number; a local card neither names (Verve ranges the spec does not list) is Verve.
 */
function cardSummary(
  number: string | null,
  authorization: TPaystackAuthorization | null | undefined,
): TCardSummary {
  const brand =
    PAYSTACK_BRANDS[(authorization?.brand ?? '').toLowerCase()] ??
    (number ? detectCardBrand(number) : null) ??
    'verve';
  return {
    brand,
    first6: authorization?.bin ?? number?.slice(0, 6) ?? '',
    last4: authorization?.last4 ?? number?.slice(-4) ?? '',
  };
}

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

function refundOutcome(refund: TPaystackRefund): TRefundOutcome {
  const providerReference = String(refund.id);
  if (refund.status === 'processed') return { kind: 'processed', providerReference };
  if (refund.status === 'failed') {
    return { kind: 'failed', providerReference, reason: 'refused by Paystack' };
  }
  // needs-attention: Paystack could not pay it back on its own and waits to be told the account.
  const awaiting = refund.status === 'needs-attention' ? 'account' : null;
  return { kind: 'pending', providerReference, awaiting };
}

export function paystackProvider(options: TPaystackProviderOptions): TPaystackProvider {
  const client = paystackClient(options);
  const { clock } = options;
  const pendingChecks = options.pendingCheckDelaysMs ?? [10_000, 20_000];
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /*
   * References asked about (a requery) that Paystack had never seen: the port closes them, and a
   * late call with one is refused here. Paystack itself cannot close a reference, so this holds
   * in this process only (docs/providers/paystack.md "Lost answers and errors").
   */
  const closed = new Set<string>();
  /** The step each open charge waits at, and its card, by Paystack's reference. */
  const openCharges = new Map<string, { step: string; card: TCardSummary }>();
  /** One-time accounts opened, by our reference: asking again answers the same. */
  const transferAccounts = new Map<string, TTransferAccount>();
  /** The bank list, and Paystack's own id of each bank by its code (Retry Refund names it so). */
  let bankList: { at: number; banks: readonly TBank[]; ids: ReadonlyMap<string, number> } | null =
    null;

  /**
   * Paystack's record of our reference (a verify call at `path`); null when Paystack never saw
   * it, which closes the reference here.
   */
  async function recordOf<T>(path: string, reference: string): Promise<T | null> {
    const providerReference = toPaystackReference(reference);
    const answer = await client.read<T>(`${path}/${segment(providerReference)}`);
    if (answer.ok) return answer.data;
    if (!isUnknownReference(answer)) {
      throw new PaystackNoAnswer(`${path} ${providerReference}`, answer.message);
    }
    closed.add(reference);
    return null;
  }

  // Cards --------------------------------------------------------------------------------------

  /** A charge's answer in the port's words, following a PIN step and 'pending' by reference. */
  async function chargeOutcome(
    charge: TPaystackCharge,
    card: TCardSummary,
    pin: string | null,
  ): Promise<TCardChargeOutcome> {
    const providerReference = charge.reference;
    const summary = charge.authorization?.last4 ? cardSummary(null, charge.authorization) : card;
    switch (charge.status) {
      case 'success':
        openCharges.delete(providerReference);
        if (!takenInNaira(charge)) {
          return { kind: 'failed', providerReference, card: summary, reason: 'declined' };
        }
        return {
          kind: 'succeeded',
          providerReference,
          card: summary,
          token: charge.authorization?.reusable
            ? (charge.authorization.authorization_code ?? null)
            : null,
        };
      case 'failed':
        openCharges.delete(providerReference);
        return {
          kind: 'failed',
          providerReference,
          card: summary,
          reason: cardDeclineReason(charge.gateway_response ?? charge.message),
        };
      case 'send_pin': {
        // Asked of the payer only now: a card Paystack checks otherwise (3-D Secure, an OTP
        // alone) is never asked for one. A PIN that came with the card goes at once; it goes
        // once, so a charge asking again after it was wrong.
        if (pin !== null) return submitPin(providerReference, pin, summary);
        openCharges.set(providerReference, { step: 'pin', card: summary });
        return { kind: 'pin_required', providerReference, card: summary };
      }
      case 'send_otp':
        openCharges.set(providerReference, { step: 'otp', card: summary });
        return {
          kind: 'otp_required',
          providerReference,
          card: summary,
          displayMessage: charge.display_text || OTP_PROMPT,
        };
      case 'open_url':
        if (!charge.url) return stillUnknown(providerReference);
        openCharges.set(providerReference, { step: '3ds', card: summary });
        return {
          kind: 'three_ds_required',
          providerReference,
          card: summary,
          challengeUrl: charge.url,
          displayMessage: charge.display_text || THREE_DS_PROMPT,
        };
      case 'send_phone':
      case 'send_birthday':
      case 'send_address':
        // The spec's OTP screen takes six digits: a phone number, a birthday or an address cannot
        // be typed there, so such a card is refused (docs/providers/paystack.md, "Each flow of the spec, at Paystack").
        openCharges.delete(providerReference);
        return { kind: 'failed', providerReference, card: summary, reason: 'declined' };
      case 'pending': {
        for (const delay of pendingChecks) {
          await pause(delay);
          const checked = await client.read<TPaystackCharge>(
            `/charge/${segment(providerReference)}`,
          );
          if (checked.ok && checked.data.status !== 'pending') {
            return chargeOutcome(checked.data, summary, pin);
          }
        }
        return stillUnknown(providerReference);
      }
      default:
        // A status we do not know is not guessed: the charge is asked about later.
        return stillUnknown(providerReference);
    }
  }

  /** The PIN to a charge that asked for it, once: a charge that asks again, it was wrong. */
  async function submitPin(
    providerReference: string,
    pin: string,
    card: TCardSummary,
  ): Promise<TCardChargeOutcome> {
    openCharges.delete(providerReference);
    const next = await continueCharge('/charge/submit_pin', { pin, reference: providerReference });
    if (next.status === 'send_pin') {
      return { kind: 'failed', providerReference, card, reason: 'incorrect_pin' };
    }
    return chargeOutcome(next, card, null);
  }

  /**
   * The step a charge waits at for its payer, by Paystack's reference: known in the process that
   * charged it, else asked of Paystack (charged in another process, or before a restart). A charge
   * no longer waiting at `status` (decided meanwhile: paid, refused) is answered as it was
   * decided, never as a wrong PIN or OTP.
   */
  async function openCharge(
    providerReference: string,
    status: 'send_pin' | 'send_otp',
  ): Promise<{ step: string; card: TCardSummary } | TCardChargeOutcome> {
    const open = openCharges.get(providerReference);
    if (open) return open;
    const charge = await chargeByReference(providerReference);
    const card = cardSummary(null, charge.authorization);
    if (charge.status !== status) return chargeOutcome(charge, card, null);
    return { step: status === 'send_pin' ? 'pin' : 'otp', card };
  }

  function stillUnknown(providerReference: string): never {
    throw new PaystackNoAnswer(`the charge ${providerReference}`, 'no final answer yet');
  }

  /**
   * A submit_* call: its answer, or the charge's state asked by reference when none came (still
   * unknown after that: thrown, never read as a refusal).
   */
  async function continueCharge(
    path: string,
    body: { reference: string } & Record<string, string>,
  ): Promise<TPaystackCharge> {
    let answer: TPaystackAnswer<TPaystackCharge>;
    try {
      answer = await client.write<TPaystackCharge>(path, body);
    } catch (error) {
      if (!(error instanceof PaystackNoAnswer)) throw error;
      return chargeByReference(body.reference);
    }
    if (answer.ok) return answer.data;
    // Refused without a charge's state: the step's words are the reason.
    return {
      status: 'failed',
      reference: body.reference,
      gateway_response: answer.message,
    };
  }

  /** A charge call (card, bank transfer) whose answer was lost or refused as a duplicate. */
  async function chargeByReference(providerReference: string): Promise<TPaystackCharge> {
    const answer = await client.read<TPaystackCharge>(`/charge/${segment(providerReference)}`);
    if (answer.ok) return answer.data;
    throw new PaystackNoAnswer(`the charge ${providerReference}`, answer.message);
  }

  /** What became of a transaction by our reference (card charges and debits alike). */
  async function requeryTransaction(
    reference: string,
  ): Promise<TRequeryOutcome<{ authorization: TPaystackAuthorization | null }>> {
    const transaction = await recordOf<TPaystackTransaction>('/transaction/verify', reference);
    if (!transaction) return NEVER_ARRIVED;
    switch (transaction.status) {
      case 'success':
      case 'reversed':
        if (!takenInNaira(transaction)) {
          return {
            kind: 'not_taken',
            providerReference: transaction.reference,
            reason: `taken in ${transaction.currency ?? 'no currency named'}, not naira`,
          };
        }
        return {
          kind: 'taken',
          providerReference: transaction.reference,
          amount: transaction.amount,
          givenBack: transaction.status === 'reversed',
          authorization: transaction.authorization ?? null,
        };
      case 'failed': {
        // Refused while it waited at the issuer's 3-D Secure page: the payer or the issuer
        // declined the check, whatever Paystack's words (known in the process that charged).
        const reason = cardDeclineReason(transaction.gateway_response);
        const atThreeDs = openCharges.get(transaction.reference)?.step === '3ds';
        return {
          kind: 'not_taken',
          providerReference: transaction.reference,
          reason: atThreeDs && reason === 'declined' ? 'three_ds_declined' : reason,
        };
      }
      default: {
        // Not decided yet: what the charge waits for, where it waits for the payer.
        const charge = await client.read<TPaystackCharge>(
          `/charge/${segment(transaction.reference)}`,
        );
        const status = charge.ok ? charge.data.status : null;
        return {
          kind: 'pending',
          awaiting: AWAITING_OF_STATUS[status ?? ''] ?? null,
          providerReference: transaction.reference,
        };
      }
    }
  }

  /**
   * A charge.success read from Paystack's record of its transaction (Verify Transaction), as
   * Paystack asks before value is given: what arrived is what the record holds. A transaction
   * Paystack does not know is nothing to act on; no answer leaves the notice unanswered (it is
   * sent again).
   */
  async function noticedTransaction(read: {
    event: string;
    providerReference: string;
  }): Promise<TProviderNotice> {
    const answer = await client.read<TPaystackTransaction>(
      `/transaction/verify/${segment(read.providerReference)}`,
    );
    if (answer.ok) return transactionNotice(read.event, answer.data, bankCodeOf);
    if (isUnknownReference(answer)) return { kind: 'ignored', event: read.event };
    throw new PaystackNoAnswer(`verify ${read.providerReference}`, answer.message);
  }

  // Refunds ------------------------------------------------------------------------------------

  /** Paystack's refunds, optionally of one transaction. */
  const refunds = (transaction?: string) =>
    client.list<TPaystackRefund>('/refund', transaction ? { transaction } : {});

  async function findRefund(kind: TRefundKind, reference: string, transaction?: string) {
    const note = refundNote(kind, reference);
    for await (const refund of refunds(transaction)) {
      if (refund.merchant_note === note) return refund;
    }
    return null;
  }

  /**
   * Gives back `amount` (all when undefined) of the transaction Paystack calls `transaction`,
   * once for our `reference`: Paystack takes no reference of ours on a refund, so ours rides in
   * its merchant note, and a refund already asked for with it is answered instead of asked again.
   */
  async function refundOnce(request: {
    kind: TRefundKind;
    transaction: string;
    amount: number | undefined;
    /** The transaction's: naira unless a notice told of money in another currency. */
    currency?: string;
    reference: string;
    reason: string | null;
    /** Where the money goes if Paystack cannot pay it back on its own (a transfer's sender). */
    account?: TTransferSender | null;
  }): Promise<TRefundOutcome> {
    const earlier = await findRefund(request.kind, request.reference, request.transaction);
    if (earlier?.status === 'needs-attention' && request.account) {
      return retryWithAccount(earlier, request.account);
    }
    if (earlier) return refundOutcome(earlier);
    let answer: TPaystackAnswer<TPaystackRefund>;
    try {
      answer = await client.write<TPaystackRefund>('/refund', {
        transaction: request.transaction,
        ...(request.amount === undefined ? {} : { amount: request.amount }),
        currency: request.currency ?? CURRENCY_CODE,
        merchant_note: refundNote(request.kind, request.reference),
        ...(request.reason ? { customer_note: request.reason } : {}),
      });
    } catch (error) {
      if (!(error instanceof PaystackNoAnswer)) throw error;
      const asked = await findRefund(request.kind, request.reference, request.transaction);
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
    refund: TPaystackRefund,
    account: TTransferSender,
  ): Promise<TRefundOutcome> {
    await banks();
    const bankId = bankList?.ids.get(account.institutionCode);
    if (bankId === undefined) return refundOutcome(refund);
    const path = `/refund/retry_with_customer_details/${segment(String(refund.id))}`;
    const retried = await client.write<TPaystackRefund>(path, {
      refund_account_details: {
        currency: CURRENCY_CODE,
        account_number: account.accountNumber,
        bank_id: String(bankId),
      },
    });
    if (retried.ok) return refundOutcome(retried.data);
    const now = await client.read<TPaystackRefund>(`/refund/${segment(String(refund.id))}`);
    return refundOutcome(now.ok ? now.data : refund);
  }

  /**
   * A refund notice names the refunded transaction, not the refund: every refund of ours of it
   * (our reference in its merchant note) is told of as Paystack's record of it stands. Two
   * refunds of one amount are each ended by their own record, whichever the notice was about.
   * No answer from Paystack leaves the notice unanswered (it is sent again).
   */
  async function noticedRefunds(read: {
    event: string;
    transactionReference: string;
  }): Promise<TProviderNotice> {
    const ours: Array<{ reference: string; outcome: TRefundOutcome }> = [];
    for await (const refund of refunds(read.transactionReference)) {
      const reference = referenceOfNote('refund', refund.merchant_note);
      if (reference) ours.push({ reference, outcome: refundOutcome(refund) });
    }
    if (ours.length === 0) return { kind: 'ignored', event: read.event };
    return { kind: 'refunds', refunds: ours };
  }

  /** Gives money back whole or in part because we do not keep it; throws when refused. */
  const giveBack = async (request: Omit<Parameters<typeof refundOnce>[0], 'kind'>) => {
    const outcome = await refundOnce({ kind: 'giveback', ...request });
    if (outcome.kind === 'failed') {
      throw new Error(`Paystack refused to give back ${request.transaction}: ${outcome.reason}`);
    }
  };

  // Payouts ------------------------------------------------------------------------------------

  function payoutOutcome(transfer: TPaystackTransfer): TPayoutOutcome | 'pending' {
    const providerReference = transfer.transfer_code ?? transfer.reference;
    switch (transfer.status) {
      case 'success':
        return { kind: 'succeeded', providerReference };
      case 'failed':
      case 'rejected':
      case 'abandoned':
      case 'blocked':
      case 'reversed':
        return { kind: 'failed', providerReference, reason: 'account_not_found' };
      case 'otp':
        // A configuration fault, not the payee's: transfers wait for an OTP nobody will enter.
        throw new Error(
          'Paystack holds transfers for an OTP: turn off the transfer OTP in its dashboard (docs/providers/paystack.md)',
        );
      default:
        return 'pending';
    }
  }

  /** A payout's state by reference, followed while pending; left to the reconciler after. */
  async function followPayout(providerReference: string): Promise<TPayoutOutcome> {
    for (const delay of [0, ...pendingChecks]) {
      await pause(delay);
      const answer = await client.read<TPaystackTransfer>(
        `/transfer/verify/${segment(providerReference)}`,
      );
      if (answer.ok) {
        const outcome = payoutOutcome(answer.data);
        if (outcome !== 'pending') return outcome;
      }
    }
    throw new PaystackNoAnswer(`the transfer ${providerReference}`, 'no final answer yet');
  }

  // Debits -------------------------------------------------------------------------------------

  async function debitOutcome(transaction: TPaystackTransaction): Promise<TAccountDebitOutcome> {
    if (transaction.status === 'success') {
      return takenInNaira(transaction)
        ? { kind: 'succeeded', providerReference: transaction.reference }
        : { kind: 'failed', providerReference: transaction.reference, reason: 'account_not_found' };
    }
    if (transaction.status === 'failed') {
      return {
        kind: 'failed',
        providerReference: transaction.reference,
        reason: debitDeclineReason(transaction.gateway_response),
      };
    }
    for (const delay of pendingChecks) {
      await pause(delay);
      const answer = await client.read<TPaystackTransaction>(
        `/transaction/verify/${segment(transaction.reference)}`,
      );
      if (answer.ok && (answer.data.status === 'success' || answer.data.status === 'failed')) {
        return debitOutcome(answer.data);
      }
    }
    throw new PaystackNoAnswer(`the debit ${transaction.reference}`, 'no final answer yet');
  }

  async function verified(providerReference: string): Promise<TPaystackTransaction> {
    const answer = await client.read<TPaystackTransaction>(
      `/transaction/verify/${segment(providerReference)}`,
    );
    if (answer.ok) return answer.data;
    throw new PaystackNoAnswer(`verify ${providerReference}`, answer.message);
  }

  // Banks --------------------------------------------------------------------------------------

  async function banks(): Promise<readonly TBank[]> {
    const now = clock.now().getTime();
    if (bankList && now - bankList.at < BANK_LIST_TTL_MS) return bankList.banks;
    const found: TBank[] = [];
    const ids = new Map<string, number>();
    for await (const bank of client.list<TPaystackBank>('/bank', { country: 'nigeria' })) {
      if (bank.active === false || bank.is_deleted === true) continue;
      if (found.some((known) => known.institutionCode === bank.code)) continue;
      if (bank.id !== undefined) ids.set(bank.code, bank.id);
      // A Paystack bank links an account by its direct-debit mandate (transactionService),
      // where it offers one; Paystack cannot say which account a card draws on, so no bank
      // offers linking by card here.
      found.push({
        institutionCode: bank.code,
        name: bank.name,
        integrations: bank.available_for_direct_debit === false ? [] : ['transactionService'],
      });
    }
    bankList = { at: now, banks: found, ids };
    return found;
  }

  const bankCodeOf = (name: string) =>
    bankList?.banks.find((bank) => bank.name.toLowerCase() === name.toLowerCase())
      ?.institutionCode ?? null;

  // Settlement ---------------------------------------------------------------------------------

  return {
    cards: {
      provider: 'paystack',
      async chargeCard({ reference, amount, narration, card }) {
        const summary = cardSummary(card.number, null);
        if (closed.has(reference)) {
          return { kind: 'failed', providerReference: null, card: summary, reason: 'expired' };
        }
        const providerReference = toPaystackReference(reference);
        const [month = '', year = ''] = card.expiry.split('/');
        let answer: TPaystackAnswer<TPaystackCharge>;
        try {
          answer = await client.write<TPaystackCharge>('/charge', {
            email: PAYSTACK_PAYER_EMAIL,
            amount,
            reference: providerReference,
            card: {
              number: card.number,
              cvv: card.cvv,
              expiry_month: month,
              expiry_year: year.length === 2 ? `20${year}` : year,
            },
            metadata: { oya_channel: 'card', narration },
          });
        } catch (error) {
          if (!(error instanceof PaystackNoAnswer)) throw error;
          // Asked about by reference before anything else: never charged again under another.
          return chargeOutcome(await chargeByReference(providerReference), summary, card.pin);
        }
        if (answer.ok) return chargeOutcome(answer.data, summary, card.pin);
        if (isDuplicateReference(answer)) {
          return chargeOutcome(await chargeByReference(providerReference), summary, card.pin);
        }
        // Refused before a charge began (the card's details): no reference of Paystack's.
        return {
          kind: 'failed',
          providerReference: null,
          card: summary,
          reason: cardDeclineReason(answer.message),
        };
      },

      async submitCardPin({ providerReference, pin }) {
        const open = await openCharge(providerReference, 'send_pin');
        if ('kind' in open) return open;
        if (open.step !== 'pin') {
          return { kind: 'failed', providerReference, card: open.card, reason: 'incorrect_pin' };
        }
        return submitPin(providerReference, pin, open.card);
      },

      async submitCardOtp({ providerReference, otp }) {
        const open = await openCharge(providerReference, 'send_otp');
        if ('kind' in open) return open;
        if (open.step !== 'otp') {
          return { kind: 'failed', providerReference, card: open.card, reason: 'incorrect_otp' };
        }
        const next = await continueCharge('/charge/submit_otp', {
          otp,
          reference: providerReference,
        });
        if (
          next.status === 'failed' &&
          cardDeclineReason(next.gateway_response ?? next.message) === 'declined'
        ) {
          // Refused at the OTP step in words that name nothing else: the OTP was wrong.
          openCharges.delete(providerReference);
          return { kind: 'failed', providerReference, card: open.card, reason: 'incorrect_otp' };
        }
        return chargeOutcome(next, open.card, null);
      },

      async requeryCardCharge(reference) {
        const answer = await requeryTransaction(reference);
        if (answer.kind !== 'taken') return answer;
        const { authorization, ...taken } = answer;
        return { ...taken, card: cardSummary(null, authorization) };
      },

      refundCard: async ({ providerReference, amount, reference }) => {
        await giveBack({ transaction: providerReference, amount, reference, reason: null });
        return { refunded: true };
      },

      // Paystack names a card's issuer and its first 6 and last 4 digits, never the account it
      // draws on: it proves no card is on an account, so a card links none through Paystack.
      isCardOnAccount: async () => false,
    },
    banks: {
      provider: 'paystack',
      listBanks: banks,
      lookupBank: async (institutionCode) =>
        (await banks()).find((bank) => bank.institutionCode === institutionCode) ?? null,

      async nameEnquiry({ institutionCode, accountNumber }) {
        const bank = (await banks()).find((b) => b.institutionCode === institutionCode);
        if (!bank) return null;
        const answer = await client.read<TPaystackResolvedAccount>('/bank/resolve', {
          account_number: accountNumber,
          bank_code: institutionCode,
        });
        if (!answer.ok) return null;
        return {
          accountName: answer.data.account_name,
          // Paystack gives no enquiry reference: ours names what was asked, so a repeat is the same.
          nameEnquiryId: `psk_ne_${institutionCode}_${accountNumber}`,
          integrations: bank.integrations,
          // Resolve Account answers the holder's name only.
          bvn: null,
        };
      },

      // Customer validation: Paystack checks the BVN against the account, and answers by its
      // notice (customeridentification.success or .failed, paystack-notices.ts).
      async checkAccountHolder({ payerId, bvn, fullName, institutionCode, accountNumber }) {
        const names = fullName.trim().split(/\s+/);
        const firstName = names[0] ?? fullName;
        const lastName = names.length > 1 ? (names[names.length - 1] ?? firstName) : firstName;
        const customer = await client.write<TPaystackCustomer>('/customer', {
          email: paystackPayerEmail(payerId),
          first_name: firstName,
          last_name: lastName,
        });
        if (!customer.ok) throw new PaystackNoAnswer('Create Customer', customer.message);
        const asked = await client.write<unknown>(
          `/customer/${segment(customer.data.customer_code)}/identification`,
          {
            country: 'NG',
            type: 'bank_account',
            account_number: accountNumber,
            bvn,
            bank_code: institutionCode,
            first_name: firstName,
            last_name: lastName,
          },
        );
        if (!asked.ok) throw new PaystackNoAnswer('Validate Customer', asked.message);
        return 'pending';
      },
    },
    debits: {
      provider: 'paystack',
      // Direct debit: the payer approves the mandate at their bank's page; Paystack tells us when
      // the bank activated it (direct_debit.authorization.active), or is asked (Verify Authorization).
      debitMandates: {
        kind: 'bank_page',
        async open({ payerId, institutionCode, accountNumber, returnUrl }) {
          const answer = await client.write<TPaystackMandateOpened>(
            '/customer/authorization/initialize',
            {
              email: paystackPayerEmail(payerId),
              channel: 'direct_debit',
              callback_url: returnUrl,
              account: { number: accountNumber, bank_code: institutionCode },
            },
          );
          if (!answer.ok) throw new PaystackNoAnswer('Initialize Authorization', answer.message);
          return { providerReference: answer.data.reference, formUrl: answer.data.redirect_url };
        },
        async status(providerReference) {
          const answer = await client.read<TPaystackMandate>(
            `/customer/authorization/verify/${segment(providerReference)}`,
          );
          // Paystack answers 404 until the payer approved and the bank confirmed.
          if (!answer.ok || !answer.data.active) return { kind: 'pending' };
          return { kind: 'active', authorization: answer.data.authorization_code };
        },
      },

      async debitAccount({ reference, mandateReference, payerId, amount, narration }) {
        if (closed.has(reference)) {
          return { kind: 'failed', providerReference: null, reason: 'expired' };
        }
        const providerReference = toPaystackReference(reference);
        let answer: TPaystackAnswer<TPaystackTransaction>;
        try {
          answer = await client.write<TPaystackTransaction>('/transaction/charge_authorization', {
            // The customer the payer's mandate was given as.
            email: paystackPayerEmail(payerId),
            amount,
            // The link's mandate at Paystack is the authorisation its payer gave.
            authorization_code: mandateReference,
            reference: providerReference,
            metadata: JSON.stringify({ oya_channel: 'debit', narration }),
          });
        } catch (error) {
          if (!(error instanceof PaystackNoAnswer)) throw error;
          return debitOutcome(await verified(providerReference));
        }
        if (answer.ok) return debitOutcome(answer.data);
        if (isDuplicateReference(answer)) return debitOutcome(await verified(providerReference));
        return {
          kind: 'failed',
          providerReference: null,
          reason: debitDeclineReason(answer.message),
        };
      },

      requeryDebit: async (reference) => {
        const answer = await requeryTransaction(reference);
        if (answer.kind !== 'taken') return answer;
        const { authorization: _authorization, ...taken } = answer;
        return taken;
      },

      reverseDebit: async ({ providerReference, reference }) => {
        await giveBack({
          transaction: providerReference,
          amount: undefined,
          reference,
          reason: null,
        });
        return { reversed: true };
      },
    },
    payouts: {
      provider: 'paystack',
      async payOut({ reference, institutionCode, accountNumber, accountName, amount, narration }) {
        if (closed.has(reference)) {
          return { kind: 'failed', providerReference: null, reason: 'expired' };
        }
        const providerReference = toPaystackReference(reference);
        // Paystack answers the recipient it has for an account number it knows.
        const recipient = await client.write<TPaystackRecipient>('/transferrecipient', {
          type: 'nuban',
          name: accountName,
          account_number: accountNumber,
          bank_code: institutionCode,
          currency: CURRENCY_CODE,
        });
        if (!recipient.ok)
          return { kind: 'failed', providerReference: null, reason: 'account_not_found' };
        let answer: TPaystackAnswer<TPaystackTransfer>;
        try {
          answer = await client.write<TPaystackTransfer>('/transfer', {
            source: 'balance',
            amount,
            recipient: recipient.data.recipient_code,
            reference: providerReference,
            reason: narration,
            currency: CURRENCY_CODE,
          });
        } catch (error) {
          if (!(error instanceof PaystackNoAnswer)) throw error;
          return followPayout(providerReference);
        }
        if (!answer.ok) {
          if (isDuplicateReference(answer)) return followPayout(providerReference);
          return { kind: 'failed', providerReference: null, reason: 'account_not_found' };
        }
        const outcome = payoutOutcome(answer.data);
        return outcome === 'pending' ? followPayout(providerReference) : outcome;
      },

      async requeryPayout(reference) {
        const transfer = await recordOf<TPaystackTransfer>('/transfer/verify', reference);
        if (!transfer) return NEVER_ARRIVED;
        const code = transfer.transfer_code ?? transfer.reference;
        switch (transfer.status) {
          case 'success':
          case 'reversed':
            return {
              kind: 'taken',
              providerReference: code,
              amount: transfer.amount,
              givenBack: transfer.status === 'reversed',
            };
          case 'failed':
          case 'rejected':
          case 'abandoned':
          case 'blocked':
            return { kind: 'not_taken', providerReference: code, reason: transfer.status };
          default:
            return { kind: 'pending', awaiting: null, providerReference: code };
        }
      },
    },
    refunds: {
      provider: 'paystack',
      refund: async ({ reference, providerReference, channel, amount, sender, reason }) =>
        closed.has(reference)
          ? { kind: 'failed', providerReference: null, reason: 'never arrived' }
          : refundOnce({
              kind: 'refund',
              // A transfer is known by its one-time account's reference, ours: Paystack's charge
              // that opened the account carries it in Paystack's characters.
              transaction:
                channel === 'transfer' ? toPaystackReference(providerReference) : providerReference,
              amount,
              reference,
              reason,
              account: sender,
            }),

      // Asked about only once the refund has waited minutes (the reconciler), long after its own
      // call ended (30 s at most): a refund Paystack does not list by then never arrived. Its
      // reference is closed here, so no late call of this process asks for it again.
      async requeryRefund(reference) {
        const found = await findRefund('refund', reference);
        if (found) return refundOutcome(found);
        closed.add(reference);
        return { kind: 'failed', providerReference: null, reason: 'never arrived' };
      },
    },
    transfersIn: {
      provider: 'paystack',
      async openTransferAccount({ reference, amount, notAfter }) {
        const known = transferAccounts.get(reference);
        if (known) return known;
        const providerReference = toPaystackReference(reference);
        const ownExpiry = clock.now().getTime() + PAYSTACK_TRANSFER_ACCOUNT_MS;
        const expiresAt = new Date(Math.min(ownExpiry, notAfter?.getTime() ?? ownExpiry));
        let charge: TPaystackCharge;
        try {
          const answer = await client.write<TPaystackCharge>('/charge', {
            email: PAYSTACK_PAYER_EMAIL,
            amount,
            reference: providerReference,
            bank_transfer: { account_expires_at: expiresAt.toISOString() },
            metadata: { oya_channel: 'transfer' },
          });
          if (!answer.ok && !isDuplicateReference(answer)) {
            throw new Error(`Paystack opened no account for a transfer: ${answer.message}`);
          }
          charge = answer.ok ? answer.data : await chargeByReference(providerReference);
        } catch (error) {
          if (!(error instanceof PaystackNoAnswer)) throw error;
          charge = await chargeByReference(providerReference);
        }
        if (!charge.account_number) {
          throw new PaystackNoAnswer(
            `the transfer account ${providerReference}`,
            'no account number',
          );
        }
        const account: TTransferAccount = {
          bankName: charge.bank?.name ?? 'Paystack',
          accountNumber: charge.account_number,
          // The name the payer's bank shows is Paystack's, not the one we asked for.
          accountName: charge.account_name ?? 'Paystack Checkout',
          expiresAt: charge.account_expires_at ? new Date(charge.account_expires_at) : expiresAt,
        };
        transferAccounts.set(reference, account);
        return account;
      },

      // Paystack itself sends back a transfer of another amount or one after the account expired,
      // and tells us of neither; what reaches us and is not taken (a payment paid otherwise, a
      // link's test transfer from another account) is refunded whole, once per transfer.
      returnTransfer: async ({ providerReference, amount, currency, reason }) => {
        await giveBack({
          transaction: providerReference,
          amount,
          currency,
          reference: `${providerReference}.returned`,
          reason: `Returned: ${reason.replace(/_/g, ' ')}`,
        });
        return { returned: true };
      },
    },
    notices: {
      provider: 'paystack',
      async readNotice(notice) {
        // A transfer's sender is named by its bank's name: the bank list gives the code. Asked for
        // only for a notice that is Paystack's, and a notice is read whether or not the list
        // answers (without it, the sender is not named).
        const signature = notice.headers['x-paystack-signature'];
        if (!isPaystackSignature(notice.body, signature, options.secretKey)) return null;
        if (!bankList) await banks().catch(() => null);
        const read = readVerifiedPaystackNotice(notice.body, {
          bankCodeOf,
          payerOfEmail: payerOfPaystackEmail,
        });
        if (read?.kind === 'transaction_of') return noticedTransaction(read);
        if (read?.kind === 'refunds_of') return noticedRefunds(read);
        return read;
      },
    },
    settlement: {
      provider: 'paystack',
      async settlementReport() {
        const lines: TSettlementLine[] = [];
        // Transactions given back whole by us (not a merchant's refunds, which are lines of their own).
        const givenBack = new Set<string>();
        for await (const refund of refunds()) {
          if (refund.status !== 'processed') continue;
          if (referenceOfNote('giveback', refund.merchant_note)) {
            givenBack.add(String(refundTransactionKey(refund)));
          }
          const reference = referenceOfNote('refund', refund.merchant_note);
          if (reference)
            lines.push({ channel: 'refund', reference, amount: refund.amount, givenBack: false });
        }
        for await (const transaction of client.list<TPaystackTransaction>('/transaction')) {
          const reference = fromPaystackReference(transaction.reference);
          const channel = ourChannel(transaction.metadata);
          if (!reference || (channel !== 'card' && channel !== 'debit')) continue;
          if (transaction.status !== 'success' && transaction.status !== 'reversed') continue;
          lines.push({
            channel,
            reference,
            amount: transaction.amount,
            givenBack:
              givenBack.has(String(transaction.id)) || givenBack.has(transaction.reference),
          });
        }
        for await (const transfer of client.list<TPaystackTransfer>('/transfer')) {
          const reference = fromPaystackReference(transfer.reference);
          if (!reference || (transfer.status !== 'success' && transfer.status !== 'reversed'))
            continue;
          lines.push({
            channel: 'payout',
            reference,
            amount: transfer.amount,
            givenBack: transfer.status === 'reversed',
          });
        }
        return lines;
      },
    },
  };
}

/** The transaction a refund gave back from, as Paystack names it: its id, or its reference. */
function refundTransactionKey(refund: TPaystackRefund): string | number | null {
  const { transaction } = refund;
  if (transaction === null || transaction === undefined)
    return refund.transaction_reference ?? null;
  if (typeof transaction === 'object') return transaction.id ?? transaction.reference ?? null;
  return transaction;
}
