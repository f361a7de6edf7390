/*
 * Our references as Paystack takes them. A transaction reference may hold only letters, digits,
 * '-', '.' and '=' (ChargeCreate.reference); a transfer reference only lower-case letters, digits,
 * '-' and '_'. Our ids (`att_…`, base64url) hold upper-case letters and '_', so each is written in
 * what both allow, lower-case letters, digits and '-', with '-' as the escape:
 *
 *   a-z, 0-9      themselves
 *   A-Z           '-' and the letter in lower case   (att_Ab → att-0-ab)
 *   '-'           '--'
 *   '_'           '-0'
 *   anything else '-1' and two lower-case hex digits for each of its UTF-8 bytes
 *
 * The mapping is a bijection between strings and its canonical images: `fromPaystackReference`
 * undoes `toPaystackReference`, and answers null for anything it could not have written (a
 * reference that is not ours: another system's charge on the same Paystack account), so no two of
 * our references ever meet at Paystack and nothing is kept to translate them back.
 */

/** Our reference as Paystack carries it (see the table above). */
export function toPaystackReference(ours: string): string {
  let written = '';
  for (const char of ours) {
    if (/[a-z0-9]/.test(char)) written += char;
    else if (/[A-Z]/.test(char)) written += `-${char.toLowerCase()}`;
    else if (char === '-') written += '--';
    else if (char === '_') written += '-0';
    else
      for (const byte of Buffer.from(char, 'utf8')) {
        written += `-1${byte.toString(16).padStart(2, '0')}`;
      }
  }
  return written;
}

/** Our reference back from Paystack's; null when `theirs` is not one we wrote. */
export function fromPaystackReference(theirs: string): string | null {
  const bytes: number[] = [];
  for (let at = 0; at < theirs.length;) {
    const char = theirs[at] ?? '';
    if (/[a-z0-9]/.test(char)) {
      bytes.push(char.charCodeAt(0));
      at += 1;
      continue;
    }
    if (char !== '-') return null;
    const next = theirs[at + 1] ?? '';
    if (/[a-z]/.test(next)) bytes.push(next.toUpperCase().charCodeAt(0));
    else if (next === '-') bytes.push(0x2d);
    else if (next === '0') bytes.push(0x5f);
    else if (next === '1' && /^[0-9a-f]{2}$/.test(theirs.slice(at + 2, at + 4))) {
      bytes.push(Number.parseInt(theirs.slice(at + 2, at + 4), 16));
      at += 2;
    } else return null;
    at += 2;
  }
  const ours = Buffer.from(bytes).toString('utf8');
  // Only the canonical image maps back: '-161' for 'a', or bytes that are not UTF-8, are not ours.
  return toPaystackReference(ours) === theirs ? ours : null;
}
