import { createHash } from 'node:crypto';
import { readIccData } from '../../domain/emv/icc-data';
import type { TClock } from '../clock';
import type { TDb } from '../db/database';
import { claimCharge, giveBackCharge, requeryCharge, type TChargeRow } from './sandbox-charges';
import { parsePinBlock } from '../../domain/emv/pin-block';
import type { TSandboxChipCard, TSandboxReader } from './fixtures';
import { decryptPinBlock, verifySandboxArqc } from './sandbox-emv';
import { trackExpiryOf } from './sandbox-reader';
import type {
  TChipDeclineReason,
  TChipPurchase,
  TReaderAcquirerPort,
  TChipPurchaseOutcome,
} from '../providers/payments';

/*
 * The sandbox acquirer and issuer of chip purchases (docs/terminal.md): registered readers by
 * serial, and the chip test cards, each answering by its scenario once the card has proved
 * itself (its ARQC over the transaction) and the payer their PIN (the format 0 block under the
 * sandbox PIN key). Deterministic, and on the record: each purchase is kept by our reference
 * (sandbox-charges.ts), so the same reference answers the same and the card is charged once.
 */

const REFERENCE_PREFIX = 'sbx_tp_';

const RESPONSE_CODES: Record<TChipDeclineReason, string> = {
  insufficient_funds: '51',
  incorrect_pin: '55',
  declined: '05',
  format_error: '30',
  invalid_amount: '13',
  invalid_terminal: '03',
  expired: '68',
};

export function sandboxAcquirer(options: {
  db: TDb;
  clock: TClock;
  readers: readonly TSandboxReader[];
  cards: readonly TSandboxChipCard[];
}): TReaderAcquirerPort {
  const declined = (
    reason: TChipDeclineReason,
    providerReference: string | null,
  ): TChipPurchaseOutcome => ({
    kind: 'declined',
    responseCode: RESPONSE_CODES[reason],
    reason,
    providerReference,
  });

  /** The PIN in the block, or null when the block is not one under the sandbox key. */
  const pinOf = (request: TChipPurchase): string | null => {
    try {
      return parsePinBlock(decryptPinBlock(request.pinBlock), request.pan);
    } catch {
      return null;
    }
  };

  const issuerAnswer = (
    request: TChipPurchase,
    providerReference: string,
  ): TChipPurchaseOutcome => {
    const card = options.cards.find((c) => c.number === request.pan);
    if (!card || trackExpiryOf(card.expiry) !== request.expiry) {
      return declined('declined', providerReference);
    }
    let icc;
    try {
      icc = readIccData(request.iccData);
    } catch {
      return declined('format_error', null);
    }
    if (icc.amount !== request.amount) return declined('invalid_amount', null);
    // The card proves itself before the payer does: a changed field, or a card that declined
    // offline, is refused whatever the PIN.
    if (!icc.asksOnline || !verifySandboxArqc(request.pan, icc.values)) {
      return declined('declined', providerReference);
    }
    const pin = pinOf(request);
    if (pin === null) return declined('format_error', providerReference);
    if (pin !== card.pin) return declined('incorrect_pin', providerReference);
    switch (card.scenario) {
      case 'chip_approved':
        return {
          kind: 'approved',
          responseCode: '00',
          // Six digits from our reference: the same purchase gets the same authorisation code.
          authCode: String(
            createHash('sha256').update(request.reference).digest().readUInt32BE(0) % 1_000_000,
          ).padStart(6, '0'),
          providerReference,
        };
      case 'chip_insufficient_funds':
        return declined('insufficient_funds', providerReference);
      case 'chip_declined':
      case 'magstripe_only':
        return declined('declined', providerReference);
    }
  };

  return {
    kind: 'reader',
    provider: 'sandbox',
    terminalFetchKeys: async (serial) => {
      const reader = options.readers.find((r) => r.serial === serial);
      return reader ? { serial: reader.serial, tid: reader.tid, mid: reader.mid } : null;
    },

    async terminalChipPurchase(request) {
      const reader = options.readers.find((r) => r.serial === request.serial);
      const answer =
        !reader || reader.tid !== request.tid || reader.mid !== request.mid
          ? declined('invalid_terminal', null)
          : issuerAnswer(request, `${REFERENCE_PREFIX}${request.reference}`);
      const approved = answer.kind === 'approved';
      const { row, first } = await claimCharge(options.db, options.clock, {
        reference: request.reference,
        channel: 'chip',
        amount: Number.isSafeInteger(request.amount) ? request.amount : 0,
        providerReference: answer.providerReference,
        status: approved ? 'succeeded' : 'failed',
        reason: approved ? null : answer.reason,
        responseCode: answer.responseCode,
        authCode: approved ? answer.authCode : null,
        cardFirst6: request.pan.slice(0, 6),
        cardLast4: request.pan.slice(-4),
      });
      return first ? answer : answerOf(row);
    },

    // The sandbox issuer gives back any purchase it approved, once; a repeat is the same reversal.
    async terminalReverse({ providerReference }) {
      await giveBackCharge(options.db, options.clock, 'chip', providerReference);
      return { reversed: true as const };
    },

    async requeryChipPurchase(reference) {
      const answer = await requeryCharge(options.db, options.clock, 'chip', reference);
      if (answer.kind !== 'taken') return answer;
      const { row, ...taken } = answer;
      if (!row.authCode) throw new Error(`Sandbox purchase ${reference} has no authorisation`);
      return { ...taken, authCode: row.authCode };
    },
  };

  /** A purchase's record as the answer to a repeated call. */
  function answerOf(row: TChargeRow): TChipPurchaseOutcome {
    if (row.status === 'succeeded' && row.authCode && row.providerReference) {
      return {
        kind: 'approved',
        responseCode: '00',
        authCode: row.authCode,
        providerReference: row.providerReference,
      };
    }
    const reason = (row.reason ?? 'declined') as TChipDeclineReason;
    return declined(reason in RESPONSE_CODES ? reason : 'declined', row.providerReference);
  }
}
