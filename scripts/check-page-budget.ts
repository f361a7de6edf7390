// The first paint's budget: the scripts and styles a browser must load before /r/{id} can paint
// (the page's entry chunk, every chunk it imports statically, and their CSS), gzipped, must stay
// within 100 KB. Read from the build's manifest; run after `npm run build` (npm test does).
// `--limit-kb N` checks against another limit (to see it fail, or to try a tighter one).
//
//   tsx scripts/check-page-budget.ts [--limit-kb 100]
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** KB as the issue and Vite count them: 1,000 bytes. */
const KB = 1000;
const DEFAULT_LIMIT_KB = 100;

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

function limitKb(argv: readonly string[]): number {
  const at = argv.indexOf('--limit-kb');
  if (at === -1) return DEFAULT_LIMIT_KB;
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

  const critical = unique(staticClosure(manifest, entryKey));
  const total = printTable(
    'Before /r/{id} can paint (entry, its static imports, their CSS):',
    sizes(critical),
  );

  // For the record, not the budget: what the consent page loads beside and after its first
  // paint, at low priority (vite.config.ts lists it, the server names it in the page).
  const preloadList = path.join(webDir, '.vite/consent-page-preloads.json');
  if (existsSync(preloadList)) {
    const later = (JSON.parse(readFileSync(preloadList, 'utf8')) as string[]).filter(
      (file) => !critical.includes(file),
    );
    printTable(
      'After the first paint, at low priority (the consent route, the auth prompt):',
      sizes(later),
    );
  }

  const ratio = total / (limit * KB);
  console.log(
    `Critical path of /r/{id}: ${kb(total)} gzip, budget ${limit} KB: ${(ratio * 100).toFixed(1)}% of the budget.`,
  );
  if (total > limit * KB) {
    console.error(
      `Over budget by ${kb(total - limit * KB)}: lazy-load what the first paint does not need.`,
    );
    process.exit(1);
  }
}

main();
