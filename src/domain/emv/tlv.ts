import { bytesToHex, EmvFormatError, hexToBytes } from './hex';

/*
 * BER-TLV as EMV uses it (EMV Book 3, Annex B): the chip data a card reader hands over
 * (`icc_data`, spec §7 chip-purchase) is a run of tag-length-value objects. Tags are one to
 * three bytes (a first byte ending in 11111 says more follow; each following byte with its top
 * bit set says another follows); lengths are one byte below 0x80, or 0x81 / 0x82 and one or two
 * bytes of length. A constructed tag (bit 6 of its first byte) holds more objects. '00' bytes
 * between objects are padding and are skipped, as Book 3 allows.
 */

/** One object: a primitive one holds a value (hex), a constructed one holds further objects. */
export type TTlv =
  | { tag: string; constructed: false; value: string }
  | { tag: string; constructed: true; children: TTlv[] };

const MAX_TAG_BYTES = 3;
/** Templates inside templates: a reader's data nests one or two deep, never more than this. */
const MAX_DEPTH = 8;
const MAX_LENGTH = 0xffff;

/** Whether the tag's first byte marks a constructed object. */
const isConstructedTag = (firstByte: number) => (firstByte & 0x20) !== 0;

type TCursor = { bytes: Uint8Array; at: number; field: string };

function fail(cursor: TCursor, problem: string): never {
  throw new EmvFormatError(`${cursor.field}: ${problem} at byte ${cursor.at}`);
}

function readTag(cursor: TCursor): { tag: string; constructed: boolean } {
  const start = cursor.at;
  const first = cursor.bytes[cursor.at];
  if (first === undefined) fail(cursor, 'a tag is missing');
  cursor.at += 1;
  if ((first & 0x1f) === 0x1f) {
    for (;;) {
      const next = cursor.bytes[cursor.at];
      if (next === undefined) fail(cursor, 'a multi-byte tag ends early');
      cursor.at += 1;
      if (cursor.at - start > MAX_TAG_BYTES) fail(cursor, 'a tag is longer than 3 bytes');
      if ((next & 0x80) === 0) break;
    }
  }
  return {
    tag: bytesToHex(cursor.bytes.subarray(start, cursor.at)),
    constructed: isConstructedTag(first),
  };
}

function readLength(cursor: TCursor): number {
  const first = cursor.bytes[cursor.at];
  if (first === undefined) fail(cursor, 'a length is missing');
  cursor.at += 1;
  if (first < 0x80) return first;
  const count = first & 0x7f;
  if (count === 0) fail(cursor, 'an indefinite length is not allowed');
  if (count > 2) fail(cursor, `a length of ${count} bytes is not allowed`);
  let length = 0;
  for (let i = 0; i < count; i += 1) {
    const byte = cursor.bytes[cursor.at];
    if (byte === undefined) fail(cursor, 'a length ends early');
    length = length * 256 + byte;
    cursor.at += 1;
  }
  return length;
}

function readObjects(cursor: TCursor, end: number, depth: number): TTlv[] {
  if (depth > MAX_DEPTH) fail(cursor, `templates nest deeper than ${MAX_DEPTH}`);
  const objects: TTlv[] = [];
  while (cursor.at < end) {
    if (cursor.bytes[cursor.at] === 0x00) {
      cursor.at += 1;
      continue;
    }
    const { tag, constructed } = readTag(cursor);
    if (cursor.at >= end) fail(cursor, `tag ${tag} has no length`);
    const length = readLength(cursor);
    const valueEnd = cursor.at + length;
    if (valueEnd > end) fail(cursor, `the value of tag ${tag} runs past the end`);
    if (constructed) {
      objects.push({ tag, constructed, children: readObjects(cursor, valueEnd, depth + 1) });
    } else {
      objects.push({
        tag,
        constructed,
        value: bytesToHex(cursor.bytes.subarray(cursor.at, valueEnd)),
      });
    }
    cursor.at = valueEnd;
  }
  return objects;
}

/** The objects of BER-TLV hex; malformed input throws an EmvFormatError naming `field`. */
export function decodeTlv(hex: string, field = 'icc_data'): TTlv[] {
  const bytes = hexToBytes(hex, field);
  const cursor: TCursor = { bytes, at: 0, field };
  return readObjects(cursor, bytes.length, 0);
}

function encodeLength(length: number): string {
  if (!Number.isSafeInteger(length) || length < 0 || length > MAX_LENGTH) {
    throw new EmvFormatError(`a value of ${length} bytes cannot be encoded`);
  }
  const hex = length.toString(16).toUpperCase();
  if (length < 0x80) return hex.padStart(2, '0');
  return length <= 0xff ? `81${hex.padStart(2, '0')}` : `82${hex.padStart(4, '0')}`;
}

function checkTag(object: TTlv): void {
  const cursor: TCursor = { bytes: hexToBytes(object.tag, 'tag'), at: 0, field: 'tag' };
  const { constructed } = readTag(cursor);
  if (cursor.at !== cursor.bytes.length) fail(cursor, `${object.tag} is not one tag`);
  if (constructed !== object.constructed) {
    fail(cursor, `${object.tag} is ${constructed ? '' : 'not '}a constructed tag`);
  }
}

/** BER-TLV hex of objects: the shortest length form, tags as given (upper case). */
export function encodeTlv(objects: readonly TTlv[]): string {
  return objects
    .map((object) => {
      checkTag(object);
      const value = object.constructed ? encodeTlv(object.children) : object.value.toUpperCase();
      hexToBytes(value, object.tag);
      return `${object.tag.toUpperCase()}${encodeLength(value.length / 2)}${value}`;
    })
    .join('');
}

/**
 * Every primitive value by tag, templates opened. A tag given twice is refused: two values for
 * one field would let the checks and the issuer read different amounts.
 */
export function tlvValues(objects: readonly TTlv[], field = 'icc_data'): Map<string, string> {
  const values = new Map<string, string>();
  const visit = (list: readonly TTlv[]) => {
    for (const object of list) {
      if (object.constructed) {
        visit(object.children);
        continue;
      }
      if (values.has(object.tag)) {
        throw new EmvFormatError(`${field}: tag ${object.tag} is given more than once`);
      }
      values.set(object.tag, object.value);
    }
  };
  visit(objects);
  return values;
}
