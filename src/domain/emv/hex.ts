/** Hexadecimal text and bytes, without Node's Buffer: the EMV code runs in the browser too. */

/** Why an EMV field could not be read; its message names the field and what is wrong with it. */
export class EmvFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmvFormatError';
  }
}

/** The bytes of an even-length hex string (either case); anything else is refused. */
export function hexToBytes(hex: string, field: string): Uint8Array {
  if (hex.length % 2 !== 0) throw new EmvFormatError(`${field}: hex must have an even length`);
  if (!/^[0-9A-Fa-f]*$/.test(hex)) throw new EmvFormatError(`${field}: must be hexadecimal`);
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1)
    bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** Upper-case hex of bytes, as EMV writes it. */
export function bytesToHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex.toUpperCase();
}
