import { EmvFormatError } from './hex';
import { decodeTlv, tlvValues } from './tlv';

/*
 * The chip data of a purchase (`icc_data`, spec §7 chip-purchase) as the reader hands it over
 * after the card generated its ARQC: the objects an online authorisation needs, each of the
 * length EMV Book 3 gives it. Amounts and dates are BCD: '000000250000' is 250000 kobo.
 */

/** Tag → what it is and how many bytes it holds (a range for the issuer's own data). */
export const REQUIRED_ICC_TAGS = {
  '9F26': { name: 'application cryptogram (ARQC)', bytes: [8, 8] },
  '9F27': { name: 'cryptogram information data', bytes: [1, 1] },
  '9F10': { name: 'issuer application data', bytes: [1, 32] },
  '9F37': { name: 'unpredictable number', bytes: [4, 4] },
  '9F36': { name: 'application transaction counter', bytes: [2, 2] },
  '95': { name: 'terminal verification results', bytes: [5, 5] },
  '9A': { name: 'transaction date', bytes: [3, 3] },
  '9C': { name: 'transaction type', bytes: [1, 1] },
  '9F02': { name: 'amount, authorised', bytes: [6, 6] },
  '5F2A': { name: 'transaction currency code', bytes: [2, 2] },
  '82': { name: 'application interchange profile', bytes: [2, 2] },
} as const;

export type TIccTag = keyof typeof REQUIRED_ICC_TAGS;

/** Cryptogram information data: the card asks to go online (ARQC), rather than TC or AAC. */
export const CID_ARQC = 0x80;
const CID_TYPE_MASK = 0xc0;

export type TIccData = {
  /** Every primitive value by tag (hex), the required ones and any others the reader sent. */
  values: ReadonlyMap<string, string>;
  /** 9F02 in minor units (kobo). */
  amount: number;
  /** 5F2A, four digits ('0156'). */
  currencyCode: string;
  /** 9C, two digits. */
  transactionType: string;
  /** 9A, YYMMDD. */
  transactionDate: string;
  /** Whether 9F27 says the card asks for online authorisation (an ARQC). */
  asksOnline: boolean;
};

const isBcd = (hex: string) => /^\d*$/.test(hex);

function bcd(values: ReadonlyMap<string, string>, tag: TIccTag): string {
  const value = values.get(tag) ?? '';
  if (!isBcd(value)) throw new EmvFormatError(`icc_data: tag ${tag} must be BCD digits`);
  return value;
}

/**
 * The chip data of a purchase, checked: valid BER-TLV, every required tag present once and of
 * its length, amounts and dates in BCD. Anything else throws an EmvFormatError.
 */
export function readIccData(hex: string): TIccData {
  const values = tlvValues(decodeTlv(hex, 'icc_data'));
  for (const [tag, { name, bytes }] of Object.entries(REQUIRED_ICC_TAGS)) {
    const value = values.get(tag);
    if (value === undefined) throw new EmvFormatError(`icc_data: tag ${tag} (${name}) is missing`);
    const length = value.length / 2;
    if (length < bytes[0] || length > bytes[1]) {
      throw new EmvFormatError(`icc_data: tag ${tag} (${name}) has ${length} bytes`);
    }
  }
  const date = bcd(values, '9A');
  const month = Number(date.slice(2, 4));
  const day = Number(date.slice(4, 6));
  if (month < 1 || month > 12 || day < 1 || day > 31) {
    throw new EmvFormatError('icc_data: tag 9A (transaction date) is not a date');
  }
  const cid = Number.parseInt(values.get('9F27') ?? '00', 16);
  return {
    values,
    amount: Number(bcd(values, '9F02')),
    currencyCode: bcd(values, '5F2A'),
    transactionType: bcd(values, '9C'),
    transactionDate: date,
    asksOnline: (cid & CID_TYPE_MASK) === CID_ARQC,
  };
}

/** An amount in minor units as 9F02 holds it: 12 BCD digits. */
export function amountToBcd(amount: number): string {
  if (!Number.isSafeInteger(amount) || amount < 0 || amount > 999_999_999_999) {
    throw new EmvFormatError('amount: does not fit 12 digits');
  }
  return String(amount).padStart(12, '0');
}

/**
 * The date (YYMMDD) of an ISO 8601 date-time as written, in its own offset: the reader's local
 * date, which is what it puts in tag 9A.
 */
export const emvDateOf = (isoDateTime: string): string =>
  `${isoDateTime.slice(2, 4)}${isoDateTime.slice(5, 7)}${isoDateTime.slice(8, 10)}`;
