import { readFileSync } from 'node:fs';

// README.md's "Try it by hand", the one place its words live: a test that follows it takes each
// name it clicks, types or expects from here, and fails when the README no longer says it.

const readme = readFileSync('README.md', 'utf8');

function between(text: string, start: string, end: string): string {
  const from = text.indexOf(start);
  const to = text.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`README.md has no '${start}' … '${end}'`);
  return text.slice(from, to);
}

// The section ends where the next heading of the README begins.
const tryItByHand = between(readme, '### Try it by hand', '\n## ');
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The line `npm start` prints for a demo consent, as the README shows it. */
export function readmeDemoLine(label: string): string {
  const line = `Demo consent, ${label}: http://localhost:3000/r/cns_…?clientId=cli_demo`;
  if (!readme.includes(line)) throw new Error(`README.md does not show '${line}'`);
  return label;
}

/**
 * Step `n` of "Try it by hand", one line. Each getter returns the words it was given once the
 * step says them so: `bold` **words** (or **`words`**: a control, a heading, a consent's line),
 * `code` `words` (an account number, a card), `quote` 'words' (what the page says), `plain`
 * anywhere in the step.
 */
export function readmeStep(n: number) {
  const steps = oneLine(tryItByHand).split(/ (?=\d\. )/);
  const text = steps.find((s) => s.startsWith(`${n}. `));
  if (!text) throw new Error(`README "Try it by hand" has no step ${n}`);
  const said = (words: string, ...forms: string[]) => {
    if (!forms.some((form) => text.includes(form))) {
      throw new Error(`README "Try it by hand" step ${n} does not say ${forms[0]}:\n${text}`);
    }
    return words;
  };
  return {
    text,
    bold: (words: string) => said(words, `**${words}**`, `**\`${words}\`**`),
    code: (words: string) => said(words, `\`${words}\``),
    quote: (words: string) => said(words, `'${words}'`),
    plain: (words: string) => said(words, words),
  };
}
