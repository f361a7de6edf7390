import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TNoticesPort, TProviderNotice, TRawNotice, TTransferSender } from '../payments';
import type { TMonnifyTransaction } from './monnify-api';
import { monnifyBanks } from './banks';
import { cardSummary } from './cards';
import { GIVE_BACK_PREFIX, refundOf, refundOutcome } from './refunds';
import {
  ourChannel,
  transactionByMonnifyReference,
  transactionOutcome,
  type TMonnify,
} from './monnify-shared';
import { koboOf } from './monnify-shared';

/*
 * Monnify's notices (webhooks: `{ eventType, eventData }`, `monnify-signature` the hex
 * HMAC-SHA512 of the raw body keyed by the client secret) in the port's words:
 *
 *   SUCCESSFUL_TRANSACTION  read from Monnify's record of the transaction (its status by
 *                           transactionReference), never from the notice's word. A transfer into a
 *                           one-time account (our metadata says 'transfer'): transfer_received,
 *                           with what arrived (PAID, OVERPAID or PARTIALLY_PAID: the services
 *                           give back an amount that is not the one asked for); a card charge:
 *                           the charge, taken
 *   SUCCESSFUL_REFUND       a refund we asked for ended: read from Monnify's record of it by its
 *   FAILED_REFUND           refundReference (a give-back of ours is nothing to tell)
 *   SUCCESSFUL_DISBURSEMENT a payout ended: paid, refused, or paid and then sent back
 *   FAILED_DISBURSEMENT
 *   REVERSED_DISBURSEMENT
 *
 * Every other event, and any notice about a reference that is not ours, is acknowledged and
 * changes nothing ('ignored').
 */

/** Whether `signature` is Monnify's over these exact bytes: compared in constant time. */
export function isMonnifySignature(
  body: Buffer,
  signature: string | string[] | undefined,
  clientSecret: string,
): boolean {
  if (typeof signature !== 'string' || !/^[0-9a-f]{128}$/i.test(signature)) return false;
  const expected = createHmac('sha512', clientSecret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** What a verified notice names, before Monnify's records are asked. */
export type TMonnifyNoticeRead =
  | { kind: 'transaction_of'; event: string; transactionReference: string }
  | { kind: 'refund_of'; event: string; refundReference: string }
  | TProviderNotice;

/** A verified notice's body read; null when it is not a notice at all. */
export function readMonnifyNotice(body: Buffer): TMonnifyNoticeRead | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  if (!isObject(parsed) || typeof parsed.eventType !== 'string') return null;
  const event = parsed.eventType;
  const data = isObject(parsed.eventData) ? parsed.eventData : {};
  const text = (field: string) => (typeof data[field] === 'string' ? data[field] : '');
  const ignored: TProviderNotice = { kind: 'ignored', event };
  switch (event) {
    case 'SUCCESSFUL_TRANSACTION':
      return text('transactionReference')
        ? { kind: 'transaction_of', event, transactionReference: text('transactionReference') }
        : ignored;
    case 'SUCCESSFUL_REFUND':
    case 'FAILED_REFUND': {
      const refundReference = text('refundReference');
      if (!refundReference || refundReference.startsWith(GIVE_BACK_PREFIX)) return ignored;
      return { kind: 'refund_of', event, refundReference };
    }
    case 'SUCCESSFUL_DISBURSEMENT':
    case 'FAILED_DISBURSEMENT':
    case 'REVERSED_DISBURSEMENT':
      if (!text('reference')) return ignored;
      return {
        kind: 'payout',
        reference: text('reference'),
        outcome:
          event === 'SUCCESSFUL_DISBURSEMENT'
            ? 'succeeded'
            : event === 'FAILED_DISBURSEMENT'
              ? 'failed'
              : 'reversed',
        providerReference: text('transactionReference') || null,
      };
    default:
      return ignored;
  }
}

/**
 * The account a transfer came from, as Monnify's record names it: by its bank's code only, so the
 * bank list names the bank (a refund and the payer's receipt need both). A bank the list does not
 * name leaves the sender unknown, as a partial one would be taken for whole.
 */
function senderOf(
  transaction: TMonnifyTransaction,
  bankNameOf: (code: string) => string | null,
): TTransferSender | null {
  const source = transaction.accountPayments?.[0] ?? transaction.accountDetails;
  const { accountNumber, accountName, bankCode } = source ?? {};
  if (!accountNumber || !accountName || !bankCode || !/^\d{10}$/.test(accountNumber)) return null;
  const bankName = bankNameOf(bankCode);
  return bankName ? { institutionCode: bankCode, bankName, accountNumber, accountName } : null;
}

/** Monnify's record of a transaction of ours as the notice of it. */
export function transactionNotice(
  event: string,
  transaction: TMonnifyTransaction,
  bankNameOf: (code: string) => string | null,
): TProviderNotice {
  const channel = ourChannel(transaction);
  const reference = transaction.paymentReference;
  const currency = transaction.currency ?? '';
  if (!channel) return { kind: 'ignored', event };
  if (channel === 'transfer') {
    if (!['PAID', 'OVERPAID', 'PARTIALLY_PAID'].includes(transaction.paymentStatus)) {
      return { kind: 'ignored', event };
    }
    return {
      kind: 'transfer_received',
      reference,
      amount: koboOf(transaction.amountPaid),
      currency,
      sender: senderOf(transaction, bankNameOf),
      providerReference: transaction.transactionReference,
    };
  }
  const outcome = transactionOutcome(transaction, null);
  if (outcome.kind !== 'taken') return { kind: 'ignored', event };
  const details = transaction.cardDetails;
  return {
    kind: 'charge',
    channel: 'card',
    reference,
    currency,
    outcome: details?.last4
      ? { ...outcome, card: cardSummary(null, details), token: details.cardToken ?? null }
      : outcome,
  };
}

export function monnifyNotices(mf: TMonnify): TNoticesPort {
  const banks = monnifyBanks(mf);
  return {
    provider: 'monnify',
    async readNotice(notice: TRawNotice) {
      if (!isMonnifySignature(notice.body, notice.headers['monnify-signature'], mf.secretKey)) {
        return null;
      }
      const read = readMonnifyNotice(notice.body);
      if (read?.kind === 'transaction_of') {
        const record = await transactionByMonnifyReference(mf, read.transactionReference);
        if (!record) return { kind: 'ignored', event: read.event };
        // A notice is read whether or not the bank list answers: without it, no sender.
        const list = await banks.listBanks().catch(() => []);
        const bankNameOf = (code: string) =>
          list.find((bank) => bank.institutionCode === code)?.name ?? null;
        return transactionNotice(read.event, record, bankNameOf);
      }
      if (read?.kind === 'refund_of') {
        const refund = await refundOf(mf, read.refundReference);
        if (!refund) return { kind: 'ignored', event: read.event };
        return {
          kind: 'refunds',
          refunds: [{ reference: read.refundReference, outcome: refundOutcome(refund) }],
        };
      }
      return read;
    },
  };
}
