import { EmvFormatError } from './hex';

/*
 * ISO 9564-1 format 0 PIN block, in the clear (the reader encrypts it under its PIN key before
 * it leaves the device; see docs/terminal.md). Eight bytes: the PIN field XOR the PAN field.
 *   PIN field: 0, the PIN's length (4–12), the PIN digits, 'F' fill to 16 nibbles.
 *   PAN field: 0000, then the 12 rightmost digits of the card number without its check digit.
 */

const PIN = /^\d{4,12}$/;
const PAN = /^\d{13,19}$/;

function panField(pan: string): bigint {
  if (!PAN.test(pan)) throw new EmvFormatError('pan: must be 13 to 19 digits');
  return BigInt(`0x0000${pan.slice(-13, -1)}`);
}

const toHex16 = (value: bigint) => value.toString(16).toUpperCase().padStart(16, '0');

/** The clear format 0 PIN block of `pin` for the card `pan`, as 16 hex digits. */
export function buildPinBlock(pin: string, pan: string): string {
  if (!PIN.test(pin)) throw new EmvFormatError('pin: must be 4 to 12 digits');
  const pinField = `0${pin.length.toString(16)}${pin}`.padEnd(16, 'F');
  return toHex16(BigInt(`0x${pinField}`) ^ panField(pan));
}

/** The PIN inside a clear format 0 PIN block of the card `pan`; anything else is refused. */
export function parsePinBlock(block: string, pan: string): string {
  if (!/^[0-9A-Fa-f]{16}$/.test(block)) {
    throw new EmvFormatError('pin_block: must be 16 hexadecimal digits');
  }
  const pinField = toHex16(BigInt(`0x${block}`) ^ panField(pan));
  const length = Number.parseInt(pinField.charAt(1), 16);
  const pin = pinField.slice(2, 2 + length);
  const fill = pinField.slice(2 + length);
  if (pinField[0] !== '0' || length < 4 || length > 12 || !PIN.test(pin) || /[^F]/.test(fill)) {
    throw new EmvFormatError('pin_block: is not a format 0 PIN block for this card');
  }
  return pin;
}
