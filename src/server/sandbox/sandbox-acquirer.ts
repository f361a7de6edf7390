import { createHash } from 'node:crypto';
import { readIccData } from '../../domain/emv/icc-data';
import { parsePinBlock } from '../../domain/emv/pin-block';
import type { TSandboxChipCard, TSandboxReader } from './fixtures';
import { decryptPinBlock, verifySandboxArqc } from './sandbox-emv';
import { trackExpiryOf } from './sandbox-reader';
import type {
  TChipDeclineReason,
  TChipPurchase,
  TChipPurchaseOutcome,
  TPaymentProvider,
} from '../providers/payments';

/*
 * The sandbox acquirer and issuer of chip purchases (docs/terminal.md): registered readers by
 * serial, and the chip test cards, each answering by its scenario once the card has proved
 * itself (its ARQC over the transaction) and the payer their PIN (the format 0 block under the
 * sandbox PIN key). Stateless and deterministic: the same purchase answers the same.
 */

const REFERENCE_PREFIX = 'sbx_tp_';

const RESPONSE_CODES: Record<TChipDeclineReason, string> = {
  insufficient_funds: '51',
  incorrect_pin: '55',
  declined: '05',
  format_error: '30',
  invalid_amount: '13',
  invalid_terminal: '03',
};

export type TSandboxAcquirer = Pick<
  TPaymentProvider,
  'terminalFetchKeys' | 'terminalChipPurchase' | 'terminalReverse'
>;

export function sandboxAcquirer(options: {
  readers: readonly TSandboxReader[];
  cards: readonly TSandboxChipCard[];
}): TSandboxAcquirer {
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
    terminalFetchKeys: async (serial) => {
      const reader = options.readers.find((r) => r.serial === serial);
      return reader ? { serial: reader.serial, tid: reader.tid, mid: reader.mid } : null;
    },

    async terminalChipPurchase(request) {
      const reader = options.readers.find((r) => r.serial === request.serial);
      if (!reader || reader.tid !== request.tid || reader.mid !== request.mid) {
        return declined('invalid_terminal', null);
      }
      return issuerAnswer(request, `${REFERENCE_PREFIX}${request.reference}`);
    },

    // The sandbox issuer gives back any purchase it approved; a repeat is the same reversal.
    async terminalReverse({ providerReference }) {
      if (!providerReference.startsWith(REFERENCE_PREFIX)) {
        throw new Error('Not a sandbox chip purchase');
      }
      return { reversed: true as const };
    },
  };
}
