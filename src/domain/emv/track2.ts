import { EmvFormatError } from './hex';

/*
 * Track 2 equivalent data (EMV tag 57, ISO/IEC 7813 track 2): the card number, a separator ('D'
 * as the chip writes it in hex, '=' as a magnetic stripe reads it), the expiry YYMM, the
 * 3-digit service code and the issuer's discretionary data; the chip's form may end in an 'F'
 * pad nibble, the stripe's may carry its ';' and '?' sentinels.
 */

export type TTrack2 = {
  pan: string;
  /** YYMM, as track 2 and `expirydate` (spec §7) write it. */
  expiry: string;
  serviceCode: string;
  discretionary: string;
};

const TRACK2 = /^;?(\d{12,19})[D=](\d{4})(\d{3})(\d*)F?\??$/;

/** The fields of track 2 equivalent data; anything else is refused with an EmvFormatError. */
export function parseTrack2(text: string, field = 'track2'): TTrack2 {
  const match = TRACK2.exec(text.toUpperCase());
  if (!match) {
    throw new EmvFormatError(
      `${field}: must be the card number, D or =, the expiry YYMM and a 3-digit service code`,
    );
  }
  const [, pan = '', expiry = '', serviceCode = '', discretionary = ''] = match;
  const month = Number(expiry.slice(2));
  if (month < 1 || month > 12) throw new EmvFormatError(`${field}: the expiry month is not 01–12`);
  return { pan, expiry, serviceCode, discretionary };
}

/** Track 2 equivalent data as a chip writes it: 'D' between the fields, 'F' to fill a byte. */
export function formatTrack2(track: TTrack2): string {
  const text = `${track.pan}D${track.expiry}${track.serviceCode}${track.discretionary}`;
  return text.length % 2 === 0 ? text : `${text}F`;
}

/**
 * Whether the service code says the card has a chip (ISO/IEC 7813: a first digit of 2 or 6, "IC
 * card, use the chip"); a card without one can only be swiped, and the terminal asks for chip
 * insertion (spec §8 'Please use chip card insertion').
 */
export function serviceCodeHasChip(serviceCode: string): boolean {
  return serviceCode.startsWith('2') || serviceCode.startsWith('6');
}
