import { randomBytes, randomInt } from 'node:crypto';
import { amountToBcd, emvDateOf } from '../../domain/emv/icc-data';
import { buildPinBlock } from '../../domain/emv/pin-block';
import { encodeTlv } from '../../domain/emv/tlv';
import { formatTrack2 } from '../../domain/emv/track2';
import { TERMINAL_CURRENCY_CODE, TERMINAL_TRANSACTION_TYPE } from '../../domain/constants';
import type { TChipReaderData } from '../../domain/schemas/card-terminal';
import type { TSandboxChipCard, TSandboxReader } from './fixtures';
import { encryptPinBlock, sandboxArqc } from './sandbox-emv';

/*
 * The sandbox card reader (docs/terminal.md "The sandbox reader"): what a real EMV reader hands
 * the page once a chip card is inserted and its PIN entered — track 2 equivalent data, the PIN
 * block encrypted under the reader's PIN key, and the chip's data with the ARQC the card
 * computed over the transaction — so a person without hardware, and a test, can pay.
 */

/** The fixed parts of the chip data of every sandbox card. */
const CARD_CONSTANTS = {
  /** Cryptogram information data: an ARQC, the card asks to go online. */
  '9F27': '80',
  /** Issuer application data: a cryptogram version and card verification results. */
  '9F10': '0110A00003220000000000000000000000FF',
  /** Terminal verification results: nothing failed. */
  '95': '0000000000',
  /** Application interchange profile: SDA, cardholder verification, terminal risk management. */
  '82': '1980',
} as const;

/** 'MM/YY' as track 2 writes it: YYMM. */
export const trackExpiryOf = (expiry: string) => `${expiry.slice(3, 5)}${expiry.slice(0, 2)}`;

/** YYMMDD of the reader's clock (UTC), as tag 9A holds it. */

/** A retrieval reference number: 12 digits, new for every transaction. */
const newRrn = () =>
  String(randomInt(0, 1_000_000)).padStart(6, '0') +
  String(randomInt(0, 1_000_000)).padStart(6, '0');

/** The chip data a sandbox card computes for `amount`, with its ARQC over those values. */
export function sandboxIccData(pan: string, amount: number, now: Date): string {
  const values = new Map<string, string>([
    ['9F02', amountToBcd(amount)],
    ['5F2A', TERMINAL_CURRENCY_CODE],
    ['9A', emvDateOf(now.toISOString())],
    ['9C', String(TERMINAL_TRANSACTION_TYPE).padStart(2, '0')],
    ['9F37', randomBytes(4).toString('hex').toUpperCase()],
    ['9F36', randomInt(1, 0xffff).toString(16).toUpperCase().padStart(4, '0')],
    ...Object.entries(CARD_CONSTANTS),
  ]);
  const arqc = sandboxArqc(pan, values);
  if (!arqc) throw new Error('The sandbox card could not compute its cryptogram');
  values.set('9F26', arqc);
  const order = ['9F26', '9F27', '9F10', '9F37', '9F36', '95', '9A', '9C', '9F02', '5F2A', '82'];
  return encodeTlv(order.map((tag) => ({ tag, constructed: false, value: values.get(tag) ?? '' })));
}

/** What the reader hands over for `card` inserted into `reader`, `pin` entered for `amount`. */
export function readSandboxCard(input: {
  reader: TSandboxReader;
  card: TSandboxChipCard;
  amount: number;
  pin: string;
  now: Date;
}): TChipReaderData {
  const { reader, card, amount, pin, now } = input;
  const expirydate = trackExpiryOf(card.expiry);
  return {
    track2: formatTrack2({
      pan: card.number,
      expiry: expirydate,
      serviceCode: card.serviceCode,
      discretionary: '00000000',
    }),
    pin_block: encryptPinBlock(buildPinBlock(pin, card.number)),
    rrn: newRrn(),
    trans_datetime: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    tid: reader.tid,
    mid: reader.mid,
    icc_data: sandboxIccData(card.number, amount, now),
    pan: card.number,
    serial: reader.serial,
    expirydate,
    amount,
  };
}
