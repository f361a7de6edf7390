import { paystackNoAnswer, paystackPath } from './paystack-calls';
import type {
  TNoticesPort,
  TProviderNotice,
  TRawNotice,
  TRefundOutcome,
  TRequeryOutcome,
  TTransferSender,
} from '../payments';
import { bankCodeOf, paystackBankList } from './banks';
import { cardSummary, reusableToken } from './cards';
import type { TPaystackAuthorization, TPaystackTransaction } from './paystack-api';
import { cardDeclineReason, isUnknownReference } from './paystack-declines';
import { payerOfPaystackEmail, type TPaystack } from './paystack-shared';
import { listRefunds, referenceOfNote, refundedWithin, refundOutcome } from './refunds';
import { fromPaystackReference } from './paystack-references';
import { isPaystackSignature } from './paystack-signature';
import { fetchedPaymentRequest, paymentRequestOutcome, referenceOfDescription } from './terminal';

/*
 * Paystack's notices (webhooks: `{ event, data }`, signed over the raw body) in the port's words.
 * What we act on:
 *
 *   charge.success    read from Paystack's record of the transaction (Verify Transaction), never
 *                     from the notice's word: bank_transfer, money reached a one-time account
 *                     (transfer_received, while the record says success); otherwise a card
 *                     charge or a debit was taken, as our metadata says. The amount, the
 *                     currency and the status are the record's: only naira pays (the services
 *                     decide), and a record that names no currency is not read as naira
 *   charge.failed     a card charge or a debit was refused
 *   refund.processed  a refund we asked for ended: given back, or refused; or Paystack could not
 *   refund.failed     pay it back on its own and waits to be told the account (needs-attention:
 *   refund.needs-attention
 *                     the services tell it the transfer's sender, or the account the merchant
 *                     gave). Paystack names the refunded transaction (transaction_reference) and
 *                     the amount, never the refund's id: the adapter lists Paystack's refunds of
 *                     that transaction and tells of each of ours (our reference is in its
 *                     merchant note) as its own record stands, so two refunds of one amount are
 *                     each ended by their own (refund.pending and refund.processing: still on
 *                     its way, nothing to do)
 *   transfer.success  a payout ended: paid, refused, or paid and then returned
 *   transfer.failed
 *   transfer.reversed
 *   direct_debit.authorization.active
 *                     the payer's bank confirmed a mandate they approved at its page
 *   customeridentification.success
 *   customeridentification.failed
 *                     whether an account is held under the payer's BVN (customer validation)
 *   paymentrequest.success
 *                     a payment request pushed to a Paystack Terminal was paid: read from
 *                     Paystack's record of it (Fetch Payment Request, with the transaction that
 *                     paid it), by its request code (terminal.ts). The terminal's own
 *                     charge.success names a reference of Paystack's, not ours, and is ignored
 *                     like any other
 *
 * Every other event, and any notice about a reference that is not ours (another system on the
 * same Paystack account), is acknowledged and changes nothing ('ignored').
 */

/**
 * A notice read: in the port's words; a refund's, which names the refunded transaction only
 * (the adapter asks Paystack for that transaction's refunds); or a charge.success, which names
 * the transaction whose record the adapter asks for (transactionNotice reads it).
 */
export type TPaystackNotice =
  | TProviderNotice
  | { kind: 'refunds_of'; event: string; transactionReference: string }
  | { kind: 'transaction_of'; event: string; providerReference: string }
  | { kind: 'payment_request_of'; event: string; requestCode: string };

type TNoticeData = {
  reference?: string;
  status?: string;
  currency?: string;
  channel?: string;
  gateway_response?: string | null;
  metadata?: unknown;
  authorization?: TPaystackAuthorization | null;
  transfer_code?: string;
  /** A refund's notice: the refunded transaction's reference. */
  transaction_reference?: string | null;
  authorization_code?: string;
  active?: boolean;
  email?: string;
  identification?: { bank_code?: string; account_number?: string } | null;
  /** A payment request's notice: its code. */
  request_code?: string;
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** What our metadata on a Paystack transaction says it was: a card charge, a debit, a transfer in. */
export type TOurChannel = 'card' | 'debit' | 'transfer';

/** Our metadata back from Paystack (an object, or the JSON text Paystack sometimes answers). */
export function ourChannel(metadata: unknown): TOurChannel | null {
  let value = metadata;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  const channel = isObject(value) ? value.oya_channel : null;
  return channel === 'card' || channel === 'debit' || channel === 'transfer' ? channel : null;
}

/** A charge of ours was a debit when our metadata says so or Paystack's channel is direct debit. */
const chargeChannel = (metadata: unknown, channel: string | undefined): 'card' | 'debit' =>
  ourChannel(metadata) === 'debit' || channel === 'direct_debit' ? 'debit' : 'card';

/** The currency Paystack names, or none: a record or notice naming none is never naira. */
const currencyOf = (record: { currency?: string }) => record.currency ?? '';

/** The account a transfer came from, when Paystack names it and its bank is one we know. */
function senderOf(
  authorization: TPaystackAuthorization | null | undefined,
  bankCodeOf: (name: string) => string | null,
): TTransferSender | null {
  const bankName = authorization?.sender_bank;
  const accountNumber = authorization?.sender_bank_account_number;
  const accountName = authorization?.sender_name;
  // Paystack may mask the sender's number (XXXXXXX789): a masked number names no account.
  if (!bankName || !accountNumber || !accountName || !/^\d{10}$/.test(accountNumber)) return null;
  const institutionCode = bankCodeOf(bankName);
  return institutionCode ? { institutionCode, bankName, accountNumber, accountName } : null;
}

/** What a notice names that only the adapter can resolve: a bank by name, a payer by email. */
export type TNoticeNames = {
  /** A bank's code by the name Paystack gives a transfer's sender's bank. */
  bankCodeOf: (bankName: string) => string | null;
  /** Our payer a Paystack customer's email names. */
  payerOfEmail: (email: string) => string | null;
};

/**
 * A notice read, or null when it is not Paystack's (no or a wrong signature) or not a notice at
 * all.
 */
export function readPaystackNotice(
  notice: TRawNotice,
  secretKey: string,
  names: TNoticeNames,
): TPaystackNotice | null {
  if (!isPaystackSignature(notice.body, notice.headers['x-paystack-signature'], secretKey)) {
    return null;
  }
  return readVerifiedPaystackNotice(notice.body, names);
}

/** A notice whose signature was verified, read (null when it is not a notice at all). */
export function readVerifiedPaystackNotice(
  body: Buffer,
  names: TNoticeNames,
): TPaystackNotice | null {
  const { payerOfEmail } = names;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  if (!isObject(parsed) || typeof parsed.event !== 'string') return null;
  const event = parsed.event;
  const data: TNoticeData = isObject(parsed.data) ? parsed.data : {};
  const ignored: TPaystackNotice = { kind: 'ignored', event };
  const providerReference = data.reference ?? '';
  const reference = fromPaystackReference(providerReference);

  switch (event) {
    case 'charge.success':
      // Paystack's record of the transaction says what arrived (asked for by the adapter,
      // paystack-provider.ts readNotice): a notice whose amount, currency or status differs from
      // it decides nothing, and money is given back only as the record holds it.
      if (!reference) return ignored;
      return { kind: 'transaction_of', event, providerReference };
    case 'charge.failed':
      if (!reference || data.channel === 'bank_transfer') return ignored;
      return {
        kind: 'charge',
        channel: chargeChannel(data.metadata, data.channel),
        reference,
        currency: currencyOf(data),
        outcome: {
          kind: 'not_taken',
          providerReference,
          reason: cardDeclineReason(data.gateway_response),
        },
      };
    case 'refund.processed':
    case 'refund.failed':
    case 'refund.needs-attention': {
      // The refunded transaction: which refunds of it ended, and how, Paystack's own records say
      // (asked for by the adapter, paystack-provider.ts readNotice); ours carry our reference in
      // their merchant note. A pushed terminal's transaction is named by Paystack's reference,
      // not ours, so every transaction's refunds are looked at.
      const transactionReference = data.transaction_reference ?? '';
      if (!transactionReference) return ignored;
      return { kind: 'refunds_of', event, transactionReference };
    }
    case 'transfer.success':
    case 'transfer.failed':
    case 'transfer.reversed':
      if (!reference) return ignored;
      return {
        kind: 'payout',
        reference,
        outcome:
          event === 'transfer.success'
            ? 'succeeded'
            : event === 'transfer.failed'
              ? 'failed'
              : 'reversed',
        providerReference: data.transfer_code ?? providerReference,
      };
    case 'direct_debit.authorization.active':
      // Paystack's own reference for the mandate (Initialize Authorization), not one of ours.
      if (!data.reference || !data.authorization_code || data.active === false) return ignored;
      return {
        kind: 'debit_mandate',
        providerReference: data.reference,
        authorization: data.authorization_code,
      };
    case 'customeridentification.success':
    case 'customeridentification.failed': {
      const payerId = data.email ? payerOfEmail(data.email) : null;
      const institutionCode = data.identification?.bank_code;
      const accountNumberMask = data.identification?.account_number;
      if (!payerId || !institutionCode || !accountNumberMask) return ignored;
      return {
        kind: 'account_holder',
        payerId,
        institutionCode,
        accountNumberMask,
        matches: event === 'customeridentification.success',
      };
    }
    case 'paymentrequest.success':
      if (!data.request_code) return ignored;
      return { kind: 'payment_request_of', event, requestCode: data.request_code };
    default:
      return ignored;
  }
}

/**
 * Paystack's record of a transaction of ours (Verify Transaction) as the notice of it, in the
 * port's words: a transfer into a one-time account that arrived and is still there, or a card
 * charge or a debit taken (given back since, if the record says reversed). Anything else (not
 * ours, not decided, refused) is nothing to act on: a requery settles it.
 */
export function transactionNotice(
  event: string,
  transaction: TPaystackTransaction,
  bankCodeOf: TNoticeNames['bankCodeOf'],
): TProviderNotice {
  const ignored: TProviderNotice = { kind: 'ignored', event };
  const reference = fromPaystackReference(transaction.reference);
  if (!reference) return ignored;
  const currency = currencyOf(transaction);
  if (transaction.channel === 'bank_transfer') {
    if (transaction.status !== 'success') return ignored;
    return {
      kind: 'transfer_received',
      reference,
      amount: transaction.amount,
      currency,
      sender: senderOf(transaction.authorization, bankCodeOf),
      providerReference: transaction.reference,
    };
  }
  const taken = takenOutcome(transaction);
  if (!taken) return ignored;
  const channel = chargeChannel(transaction.metadata, transaction.channel);
  // A card's record names its digits and, once paid, the authorization that charges it again: a
  // 3-D Secure charge whose payer asked to save the card is saved by this notice, as the charge's
  // own answer saves one paid at once.
  const { authorization } = transaction;
  const outcome =
    channel === 'card' && authorization?.last4
      ? { ...taken, card: cardSummary(null, authorization), token: reusableToken(authorization) }
      : taken;
  return { kind: 'charge', channel, reference, currency, outcome };
}

/** A transaction Paystack took, as a requery says it: given back whole when reversed. */
function takenOutcome(transaction: TPaystackTransaction): TRequeryOutcome | null {
  if (transaction.status !== 'success' && transaction.status !== 'reversed') return null;
  return {
    kind: 'taken',
    providerReference: transaction.reference,
    amount: transaction.amount,
    givenBack: transaction.status === 'reversed',
  };
}

/**
 * A charge.success read from Paystack's record of its transaction (Verify Transaction), as
 * Paystack asks before value is given: what arrived is what the record holds. A transaction
 * Paystack does not know is nothing to act on; no answer leaves the notice unanswered (it is
 * sent again).
 */
async function noticedTransaction(
  ps: TPaystack,
  read: {
    event: string;
    providerReference: string;
  },
): Promise<TProviderNotice> {
  const answer = await ps.client.read<TPaystackTransaction>(
    paystackPath`/transaction/verify/${read.providerReference}`,
  );
  if (answer.ok) return transactionNotice(read.event, answer.data, (name) => bankCodeOf(ps, name));
  if (isUnknownReference(answer)) return { kind: 'ignored', event: read.event };
  throw paystackNoAnswer(`verify ${read.providerReference}`, answer.message);
}

/**
 * A refund notice names the refunded transaction, not the refund: every refund of ours of it
 * (our reference in its merchant note), made since the transaction was, is told of as Paystack's
 * record of it stands. Two
 * refunds of one amount are each ended by their own record, whichever the notice was about.
 * No answer from Paystack leaves the notice unanswered (it is sent again).
 */
async function noticedRefunds(
  ps: TPaystack,
  read: {
    event: string;
    transactionReference: string;
  },
): Promise<TProviderNotice> {
  const made = await refundedWithin(ps, read.transactionReference);
  if (!made) return { kind: 'ignored', event: read.event };
  const ours: Array<{ reference: string; outcome: TRefundOutcome }> = [];
  for await (const refund of listRefunds(ps, read.transactionReference, made)) {
    const reference = referenceOfNote('refund', refund.merchant_note);
    if (reference) ours.push({ reference, outcome: refundOutcome(refund) });
  }
  if (ours.length === 0) return { kind: 'ignored', event: read.event };
  return { kind: 'refunds', refunds: ours };
}

/**
 * A payment request's notice, read from Paystack's record of it: what it says of the money, by
 * its code (the provider reference the push answered), and our reference its description ends
 * with. One Paystack does not know is nothing.
 */
async function noticedPaymentRequest(
  ps: TPaystack,
  read: { event: string; requestCode: string },
): Promise<TProviderNotice> {
  const request = await fetchedPaymentRequest(ps, read.requestCode);
  if (!request) return { kind: 'ignored', event: read.event };
  return {
    kind: 'terminal_request',
    providerReference: request.request_code,
    reference: referenceOfDescription(request.description),
    currency: currencyOf(request),
    outcome: paymentRequestOutcome(request),
  };
}

/** Paystack's webhooks, verified by their signature and read in the port's words. */
export function paystackNotices(ps: TPaystack): TNoticesPort {
  return {
    provider: 'paystack',
    async readNotice(notice) {
      // A transfer's sender is named by its bank's name: the bank list gives the code. Asked for
      // only for a notice that is Paystack's, and a notice is read whether or not the list
      // answers (without it, the sender is not named).
      const signature = notice.headers['x-paystack-signature'];
      if (!isPaystackSignature(notice.body, signature, ps.secretKey)) return null;
      if (!ps.bankList) await paystackBankList(ps).catch(() => null);
      const read = readVerifiedPaystackNotice(notice.body, {
        bankCodeOf: (name) => bankCodeOf(ps, name),
        payerOfEmail: payerOfPaystackEmail,
      });
      if (read?.kind === 'transaction_of') return noticedTransaction(ps, read);
      if (read?.kind === 'refunds_of') return noticedRefunds(ps, read);
      if (read?.kind === 'payment_request_of') return noticedPaymentRequest(ps, read);
      return read;
    },
  };
}
