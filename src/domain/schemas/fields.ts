import { z } from 'zod/mini';

/*
 * Rules every string, array and date that comes from outside obeys (docs/security.md): bounded,
 * printable, in a sane range. A value that breaks one is a 400 naming the field, never a
 * database error: PostgreSQL refuses NUL bytes and lone surrogates (they are not UTF-8) and
 * dates outside its calendar.
 */

/**
 * Control characters, lone surrogates, and the bidirectional overrides that make a narration
 * or a name read on the payer's screen other than it is written.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cs}\u202A-\u202E\u2066-\u2069]/u;

export const isPrintableText = (text: string): boolean => !UNPRINTABLE.test(text);

const PRINTABLE_MESSAGE = 'must be printable text (no control characters)';

/** Any text from outside, as sent (possibly empty): at most `max` characters, printable. */
export const ZPrintable = (max: number) =>
  z.string().check(z.maxLength(max), z.refine(isPrintableText, PRINTABLE_MESSAGE));

/**
 * What PostgreSQL cannot keep: the NUL character (refused in text and JSON) and lone
 * surrogates, halves of a pair that UTF-8 cannot write (refused in JSON, turned into U+FFFD in
 * text). Text that may hold other control characters (a payer's line breaks) is held to this.
 */
const LONE_SURROGATE = /\p{Cs}/u;

export const isStorableText = (text: string): boolean =>
  !text.includes('\u0000') && !LONE_SURROGATE.test(text);

/** Any text from outside that may hold line breaks, as sent: at most `max` characters, storable. */
export const ZStorable = (max: number) =>
  z
    .string()
    .check(
      z.maxLength(max),
      z.refine(isStorableText, 'must not contain a NUL character or a lone surrogate'),
    );

/** Text a person reads (a narration, a name): trimmed, not empty, bounded, printable. */
export const ZText = (max: number) =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1),
      z.maxLength(max),
      z.refine(isPrintableText, PRINTABLE_MESSAGE),
    );

/** An identifier we or a merchant issued (consent, client, discovery, app): visible ASCII. */
export const ZIdentifier = z
  .string()
  .check(
    z.trim(),
    z.minLength(1),
    z.maxLength(100),
    z.regex(/^[\x21-\x7e]+$/, 'must be an identifier (visible ASCII characters)'),
  );

/** Dates a consent may name: from 2000 to 2100, far inside what every database stores. */
export const EARLIEST_DATE = '2000-01-01T00:00:00Z';
export const LATEST_DATE = '2100-12-31T23:59:59Z';

const inDateRange = (value: string) => {
  const time = Date.parse(value);
  return time >= Date.parse(EARLIEST_DATE) && time <= Date.parse(LATEST_DATE);
};
const DATE_RANGE_MESSAGE = 'must be a date between 2000 and 2100';

/** An ISO 8601 date-time with its offset (`2027-01-01T09:00:00Z`), 2000 to 2100. */
export const ZIsoDateTime = z.iso
  .datetime({ offset: true })
  .check(z.refine(inDateRange, DATE_RANGE_MESSAGE));

/** An ISO 8601 date (`2027-01-01`) or date-time, 2000 to 2100. */
export const ZIsoDate = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })])
  .check(z.refine(inDateRange, DATE_RANGE_MESSAGE));
