import { z } from 'zod/mini';

/*
 * Rules every string, array and date that comes from outside obeys (docs/security.md): bounded,
 * printable, in a sane range. A value that breaks one is a 400 naming the field, never a
 * database error: PostgreSQL refuses NUL bytes and lone surrogates (they are not UTF-8) and
 * dates outside its calendar.
 *
 * Each rule is a regular expression, which the OpenAPI document states as the field's
 * `pattern`: what the document allows, the server takes (docs/openapi.md). The characters are
 * spelled as ranges, not Unicode property classes, so that every validator reads the pattern
 * alike (ECMA-262 with the u flag, as JSON Schema asks; Python's re, which fuzzers use).
 */

/**
 * Control characters (Unicode's Cc: U+0000-001F, U+007F-009F), lone surrogates (Cs:
 * U+D800-DFFF, halves of a pair that UTF-8 cannot write), and the bidirectional overrides and
 * isolates that make a narration or a name read on the payer's screen other than it is written.
 */
const UNPRINTABLE = '\\u0000-\\u001f\\u007f-\\u009f\\ud800-\\udfff\\u202a-\\u202e\\u2066-\\u2069';
/** What String.prototype.trim removes that is printable: a text of only these is blank. */
const SPACES = ' \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';

const PRINTABLE = new RegExp(`^[^${UNPRINTABLE}]*$`, 'u');
/**
 * Printable, with a character that is not a space: spaces, then that character, then any
 * printable text. Each part takes what the one before cannot, so a long text is read once.
 */
const PRINTABLE_NOT_BLANK = new RegExp(
  `^[${SPACES}]*[^${UNPRINTABLE}${SPACES}][^${UNPRINTABLE}]*$`,
  'u',
);

export const isPrintableText = (text: string): boolean => PRINTABLE.test(text);

const PRINTABLE_MESSAGE = 'must be printable text (no control characters)';

/** Any text from outside, as sent (possibly empty): at most `max` characters, printable. */
export const ZPrintable = (max: number) =>
  z.string().check(z.maxLength(max), z.regex(PRINTABLE, PRINTABLE_MESSAGE));

/**
 * What PostgreSQL cannot keep: the NUL character (refused in text and JSON) and lone
 * surrogates (refused in JSON, turned into U+FFFD in text). Text that may hold other control
 * characters (a payer's line breaks) is held to this.
 */
const UNSTORABLE = '\\u0000\\ud800-\\udfff';
const STORABLE = new RegExp(`^[^${UNSTORABLE}]*$`, 'u');

export const isStorableText = (text: string): boolean => STORABLE.test(text);

/** Any text from outside that may hold line breaks, as sent: at most `max` characters, storable. */
export const ZStorable = (max: number) =>
  z
    .string()
    .check(
      z.maxLength(max),
      z.regex(STORABLE, 'must not contain a NUL character or a lone surrogate'),
    );

/** Text a person reads (a narration, a name): trimmed, not empty, bounded, printable. */
export const ZText = (max: number) =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1),
      z.maxLength(max),
      z.regex(PRINTABLE_NOT_BLANK, PRINTABLE_MESSAGE),
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

/**
 * Dates from outside are written with a year from 2000 to 2100, far inside what every database
 * stores whatever the offset (2100-12-31T23:59-23:59 is 2101-01-01 in UTC). The rule reads the
 * year as written, so that the document can state it as a pattern.
 */
const YEAR_2000_TO_2100 = /^(?:20[0-9]{2}|2100)-/;
const DATE_RANGE_MESSAGE = 'must be a date between 2000 and 2100';

/**
 * An ISO 8601 date-time with its offset (`2027-01-01T09:00:00Z`), 2000 to 2100. Any offset of
 * RFC 3339 is taken (up to ±23:59); a query compares it as an instant (a Date), since
 * PostgreSQL refuses offsets past ±15:59 in a timestamp's text.
 */
export const ZIsoDateTime = z.iso
  .datetime({ offset: true })
  .check(z.regex(YEAR_2000_TO_2100, DATE_RANGE_MESSAGE));

/** An ISO 8601 date (`2027-01-01`) or date-time, 2000 to 2100. */
export const ZIsoDate = z.union([
  z.iso.date().check(z.regex(YEAR_2000_TO_2100, DATE_RANGE_MESSAGE)),
  ZIsoDateTime,
]);
