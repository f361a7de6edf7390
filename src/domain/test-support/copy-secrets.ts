/*
 * What a copy of a payer's data must never hold (docs/payer-rights.md "Download my data"): a PIN,
 * a card number (PAN), a CVV or a BVN, under a key of whatever shape ('pin', 'cardPin',
 * 'card_pin', 'PAN', 'bvnNumber'), nor a run of digits as long as a BVN or a card number standing
 * alone in any text. For tests of the copy, server and browser alike.
 */

/** A key's words: 'cardPin', 'card_pin' and 'CARD-PIN' are all ['card', 'pin']. */
const wordsOf = (key: string): string[] =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** Keys whose scalar value is a secret whatever it is. */
const ALWAYS_SECRET = new Set(['pin', 'cvv', 'cvc', 'password', 'otp']);
/** Keys whose scalar value may be its last 4 digits at most ('bvnLast4', a masked card). */
const LAST_4_AT_MOST = new Set(['pan', 'bvn']);

/**
 * Digits as long as a BVN (11) or a card number (12 to 19), standing alone in a text: not inside
 * a word such as a hash or an id, whose hex or base64 holds such runs by chance (a SHA-256 in hex
 * holds 11 digits in a row about one time in four).
 */
const LONG_DIGITS = /(?<![0-9A-Za-z])\d{11,19}(?![0-9A-Za-z])/g;

/**
 * Every place in `copy` (a parsed file) that holds a secret: its path and why. `allowedDigits`
 * are runs of digits the payer's own copy may hold (their phone number).
 */
export function secretsInCopy(copy: unknown, allowedDigits: readonly string[] = []): string[] {
  const found: string[] = [];
  const allowed = new Set(allowedDigits.map((d) => d.replace(/\D/g, '')));
  const walk = (value: unknown, path: string, key: string | null): void => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, `${path}[${i}]`, key));
      return;
    }
    if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, `${path}.${k}`, k);
      return;
    }
    // JSON's scalars: a string or a number is what could hold digits.
    if (typeof value !== 'string' && typeof value !== 'number') return;
    const text = String(value);
    const words = key ? wordsOf(key) : [];
    if (words.some((w) => ALWAYS_SECRET.has(w)) && text !== '') {
      found.push(`${path}: a ${words.join(' ')} in clear`);
    } else if (
      words.some((w) => LAST_4_AT_MOST.has(w)) &&
      (text.replace(/\D/g, '').length > 4 || /^[A-Za-z0-9+/=_-]{16,}$/.test(text))
    ) {
      found.push(`${path}: more of a ${words.join(' ')} than its last 4 digits`);
    }
    // Amounts in kobo are numbers: a card number or a BVN would be held as text.
    if (typeof value !== 'string') return;
    for (const [digits] of text.matchAll(LONG_DIGITS)) {
      if (!allowed.has(digits)) found.push(`${path}: ${digits.length} digits in a row`);
    }
  };
  walk(copy, '$', null);
  return found;
}
