// The consent page's budget (issue 31): what a browser loads until the first screen of /r/{id}
// is visible and usable, gzipped, must stay within 100 KB, for each first screen the server may
// draw. The page is visible with its stylesheet (the server drew the screen), and usable once its
// scripts have taken the screen over: the entry with every chunk it imports statically, the
// consent route's chunks, and those of the screen's parts (src/web/app/first-screen.ts; the side
// panel's, which loads only on a wide window, for the desktop). Read from the build's manifest and
// its list of first-screen chunks (vite.config.ts); run after `npm run build` (npm test does).
// The target is 100 KB for every first screen; until each meets it, each has a ceiling (CEILING_KB),
// its size when last measured with a little room, so that the budget only moves down.
// `--limit-kb N` checks every screen against N instead (`--limit-kb 100`: the target).
//
//   tsx scripts/check-page-budget.ts [--limit-kb 100]
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** KB as the issue and Vite count them: 1,000 bytes. */
const KB = 1000;
/** Issue 31's target: what a visitor needs until the consent is visible and usable. */
const TARGET_KB = 100;

/** The first screens the server may draw, by what their code holds. */
type TScreen =
  'summary' | 'auth-prompt' | 'immediate-payment' | 'auth-prompt+panel' | 'immediate-payment+panel';

/**
 * What each first screen may not exceed today (KB gzip): measured on the build of 2026-11-25 plus
 * about 2 KB. React, React DOM and the scheduler are 68 KB of it and TanStack Query 11 KB, the
 * page's stylesheet 3.4 KB (README "Benchmarks"): the page's own code has what is left.
 * Lower a ceiling when a screen gets lighter; never raise one to let a change through.
 */
const CEILING_KB: Record<TScreen, number> = {
  summary: 102.5,
  'auth-prompt': 104.5,
  'immediate-payment': 113,
  'auth-prompt+panel': 105.5,
  'immediate-payment+panel': 114,
};

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
  const brotli = rows.reduce((sum, row) => sum + (row.brotli ?? row.gzip), 0);
  console.log(
    `  ${'total'.padEnd(48)} ${''.padStart(14)} ${kb(gzip).padStart(9)} gzip ${kb(brotli).padStart(9)} br`,
  );
  return gzip;
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
      title: 'Missing Client ID, Consent Not Found, Consent Granted, the summary',
      files: [],
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
    const ceiling = limit ?? CEILING_KB[screen];
    summary.push(
      `  ${screen.padEnd(24)} ${kb(total).padStart(9)} gzip: ${((total / (TARGET_KB * KB)) * 100).toFixed(1)}% of the ${TARGET_KB} KB target, ceiling ${ceiling} KB`,
    );
    if (total > ceiling * KB) over.push(`${screen}: ${kb(total)} > ${ceiling} KB`);
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
