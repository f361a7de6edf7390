import type { TProviderNotice, TRawNotice, TRefundOutcome, TTransferSender } from '../payments';
import type { TPaystackAuthorization } from './paystack-api';
import { cardDeclineReason } from './paystack-declines';
import { fromPaystackReference } from './paystack-references';
import { isPaystackSignature } from './paystack-signature';

/*
 * Paystack's notices (webhooks: `{ event, data }`, signed over the raw body) in the port's words.
 * What we act on:
 *
 *   charge.success    bank_transfer: money reached a one-time account (transfer_received);
 *                     otherwise a card charge or a debit was taken, as our metadata says
 *   charge.failed     a card charge or a debit was refused
 *   refund.processed  a refund we asked for ended: given back (refund.failed: refused; refund.pending,
 *   refund.failed     refund.processing: still on its way); Paystack names its refund's id, and
 *                     the adapter reads our reference from that refund's merchant note
 *   transfer.success  a payout ended: paid, refused, or paid and then returned
 *   transfer.failed
 *   transfer.reversed
 *   direct_debit.authorization.active
 *                     the payer's bank confirmed a mandate they approved at its page
 *   customeridentification.success
 *   customeridentification.failed
 *                     whether an account is held under the payer's BVN (customer validation)
 *
 * Every other event, and any notice about a reference that is not ours (another system on the
 * same Paystack account), is acknowledged and changes nothing ('ignored').
 */

/**
 * A notice read: in the port's words, or a refund's, which names Paystack's refund id only (its
 * reference of ours is asked for by the adapter).
 */
export type TPaystackNotice =
  TProviderNotice | { kind: 'refund_of'; event: string; refundId: string; outcome: TRefundOutcome };

type TNoticeData = {
  reference?: string;
  status?: string;
  amount?: number;
  channel?: string;
  gateway_response?: string | null;
  metadata?: unknown;
  authorization?: TPaystackAuthorization | null;
  transfer_code?: string;
  id?: number | string | null;
  authorization_code?: string;
  active?: boolean;
  email?: string;
  identification?: { bank_code?: string; account_number?: string } | null;
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

/** Whether our metadata on the transaction says it was a debit. */
const isDebit = (metadata: unknown): boolean => ourChannel(metadata) === 'debit';

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
  const { bankCodeOf, payerOfEmail } = names;
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
  const amount = typeof data.amount === 'number' ? data.amount : null;

  switch (event) {
    case 'charge.success': {
      if (!reference || amount === null) return ignored;
      if (data.channel === 'bank_transfer') {
        return {
          kind: 'transfer_received',
          reference,
          amount,
          sender: senderOf(data.authorization, bankCodeOf),
          providerReference,
        };
      }
      return {
        kind: 'charge',
        channel: isDebit(data.metadata) || data.channel === 'direct_debit' ? 'debit' : 'card',
        reference,
        outcome: { kind: 'taken', providerReference, amount, givenBack: false },
      };
    }
    case 'charge.failed':
      if (!reference || data.channel === 'bank_transfer') return ignored;
      return {
        kind: 'charge',
        channel: isDebit(data.metadata) || data.channel === 'direct_debit' ? 'debit' : 'card',
        reference,
        outcome: {
          kind: 'not_taken',
          providerReference,
          reason: cardDeclineReason(data.gateway_response),
        },
      };
    case 'refund.processed':
    case 'refund.failed':
    case 'refund.pending':
    case 'refund.processing': {
      // Paystack's refund, by its id: whose refund it is, its merchant note says (asked for by
      // the adapter, paystack-provider.ts readNotice).
      const refundId = data.id === undefined || data.id === null ? '' : String(data.id);
      if (!/^\d+$/.test(refundId)) return ignored;
      return {
        kind: 'refund_of',
        event,
        refundId,
        outcome:
          event === 'refund.processed'
            ? { kind: 'processed', providerReference: refundId }
            : event === 'refund.failed'
              ? { kind: 'failed', providerReference: refundId, reason: 'refused by Paystack' }
              : { kind: 'pending', providerReference: refundId },
      };
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
    default:
      return ignored;
  }
}
