// The consent page's budget: what a browser loads until the first screen of /r/{id} is visible and
// usable, as the server sends it (brotli: the build's .br copies, which the server serves to every
// browser that accepts brotli), must stay within 100 KB, for each first screen the server may draw.
// The page is visible with its stylesheet (the server drew the screen), and usable once its scripts
// have taken the screen over: the entry with every chunk it imports statically, the consent route's
// chunks, and those of the screen's parts (src/web/app/first-screen.ts; the side panel's, which
// loads only on a wide window, for the desktop). Read from the build's manifest and its list of
// first-screen chunks (vite.config.ts); run after `npm run build` (npm test does). Gzip is printed
// beside it, for a browser without brotli. `--limit-kb N` checks every screen against N instead of
// 100.
//
//   tsx scripts/check-page-budget.ts [--limit-kb 90]
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** KB as the budget and Vite count them: 1,000 bytes. */
const KB = 1000;
/** The budget, as sent: what a visitor needs until the consent is visible and usable. */
const TARGET_KB = 100;

/** The first screens the server may draw, by what their code holds. */
type TScreen =
  | 'summary'
  | 'settled'
  | 'auth-prompt'
  | 'immediate-payment'
  | 'auth-prompt+panel'
  | 'immediate-payment+panel';

type TManifestChunk = {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
};
type TManifest = Record<string, TManifestChunk>;

const webDir = path.resolve('dist/web');
const manifestFile = path.join(webDir, '.vite/manifest.json');

function limitKb(argv: readonly string[]): number | null {
  const at = argv.indexOf('--limit-kb');
  if (at === -1) return null;
  const value = Number(argv[at + 1]);
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`--limit-kb needs a positive number of KB, not ${argv[at + 1]}`);
  }
  return value;
}

/** A chunk's files and those of every chunk it imports statically, CSS included, once each. */
function staticClosure(manifest: TManifest, key: string, seen = new Set<string>()): string[] {
  if (seen.has(key)) return [];
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) throw new Error(`The manifest has no chunk ${key}`);
  return [
    chunk.file,
    ...(chunk.css ?? []),
    ...(chunk.imports ?? []).flatMap((imported) => staticClosure(manifest, imported, seen)),
  ];
}

const unique = (files: string[]) => [...new Set(files)];

function sizes(files: readonly string[]) {
  return files.map((file) => {
    const content = readFileSync(path.join(webDir, file));
    const brotliFile = path.join(webDir, `${file}.br`);
    return {
      file,
      raw: content.length,
      gzip: gzipSync(content, { level: 9 }).length,
      brotli: existsSync(brotliFile) ? readFileSync(brotliFile).length : null,
    };
  });
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

function printTable(title: string, rows: ReturnType<typeof sizes>) {
  console.log(title);
  for (const row of rows) {
    console.log(
      `  ${row.file.padEnd(48)} ${kb(row.raw).padStart(10)} raw ${kb(row.gzip).padStart(9)} gzip ${(row.brotli === null ? '-' : kb(row.brotli)).padStart(9)} br`,
    );
  }
  const gzip = rows.reduce((sum, row) => sum + row.gzip, 0);
  // As sent: the brotli copy where the build wrote one, the file itself where it did not.
  const sent = rows.reduce((sum, row) => sum + (row.brotli ?? row.raw), 0);
  console.log(
    `  ${'total'.padEnd(48)} ${''.padStart(14)} ${kb(gzip).padStart(9)} gzip ${kb(sent).padStart(9)} br`,
  );
  return { gzip, sent };
}

function main() {
  if (!existsSync(manifestFile)) {
    console.error(`No build manifest at ${manifestFile}. Run: npm run build`);
    process.exit(1);
  }
  const limit = limitKb(process.argv.slice(2));
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as TManifest;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('The manifest names no entry chunk');

  const entry = unique(staticClosure(manifest, entryKey));
  const chunksFile = path.join(webDir, '.vite/first-screen-chunks.json');
  if (!existsSync(chunksFile)) throw new Error(`No list of first-screen chunks at ${chunksFile}`);
  const parts = JSON.parse(readFileSync(chunksFile, 'utf8')) as Record<string, string[]>;
  // A chunk's CSS goes with it (the manifest names it by the chunk's source).
  const withCss = (files: readonly string[]) =>
    files.flatMap((file) => {
      const chunk = Object.values(manifest).find((c) => c.file === file);
      return [file, ...(chunk?.css ?? [])];
    });
  const screens: { screen: TScreen; title: string; files: readonly string[] }[] = [
    {
      screen: 'summary',
      title: 'Missing Client ID, Consent Not Found, the summary',
      files: parts.summary ?? [],
    },
    {
      screen: 'settled',
      title: 'Consent Granted, Revoked or Declined',
      files: parts.settled ?? [],
    },
    { screen: 'auth-prompt', title: 'the auth prompt', files: parts['auth-prompt'] ?? [] },
    {
      screen: 'immediate-payment',
      title: 'Immediate Payment',
      files: parts['immediate-payment'] ?? [],
    },
    {
      screen: 'auth-prompt+panel',
      title: 'the auth prompt, with the side panel (desktop)',
      files: [...(parts['auth-prompt'] ?? []), ...(parts['side-panel'] ?? [])],
    },
    {
      screen: 'immediate-payment+panel',
      title: 'Immediate Payment, with the side panel (desktop)',
      files: [...(parts['immediate-payment'] ?? []), ...(parts['side-panel'] ?? [])],
    },
  ];
  const over: string[] = [];
  const summary: string[] = [];
  for (const { screen, title, files } of screens) {
    const needed = unique([...entry, ...withCss([...(parts.route ?? []), ...files])]);
    const total = printTable(`Until ${title} is visible and usable:`, sizes(needed));
    const limitKbOf = limit ?? TARGET_KB;
    summary.push(
      `  ${screen.padEnd(24)} ${kb(total.sent).padStart(9)} as sent (brotli), ${((total.sent / (limitKbOf * KB)) * 100).toFixed(1)}% of ${limitKbOf} KB; ${kb(total.gzip)} gzip`,
    );
    if (total.sent > limitKbOf * KB) over.push(`${screen}: ${kb(total.sent)} > ${limitKbOf} KB`);
  }
  console.log(`/r/{id} until visible and usable, per first screen:\n${summary.join('\n')}`);
  if (over.length > 0) {
    console.error(
      `Over budget: ${over.join('; ')}. Load what the first screen does not need when it is used.`,
    );
    process.exit(1);
  }
}

main();
