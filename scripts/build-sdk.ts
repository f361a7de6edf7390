// Builds the embed script (src/sdk) to one minified classic script at its versioned address,
// dist/web/sdk/v1/oya-consent.js, served by the app at /sdk/v1/oya-consent.js
// (src/server/routes/pages.ts), with its .br and .gz beside it as vite.config.ts writes them for
// the page. Fails when the script passes 8 KB gzip, or when the README's integrity hash is not
// this build's; prints the hash (sha384, base64) to publish. Run after `vite build`, which
// empties dist/web (npm run build runs both).
//
//   tsx scripts/build-sdk.ts [--write-readme]
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** KB as the issue and Vite count them: 1,000 bytes. */
const LIMIT_BYTES = 8 * 1000;
const SDK_PATH = 'sdk/v1/oya-consent.js';
const outFile = path.join(root, 'dist/web', SDK_PATH);

const result = await build({
  entryPoints: [path.join(root, 'src/sdk/global.ts')],
  bundle: true,
  minify: true,
  format: 'iife',
  // Browsers merchants' payers use; esbuild fails on any syntax it cannot lower to these.
  target: ['es2019', 'chrome80', 'safari13', 'firefox78'],
  legalComments: 'none',
  write: false,
});
const code = result.outputFiles[0]?.contents;
if (!code) throw new Error('esbuild wrote no output for the embed script');

mkdirSync(path.dirname(outFile), { recursive: true });
writeFileSync(outFile, code);
writeFileSync(`${outFile}.gz`, gzipSync(code, { level: 9 }));
writeFileSync(
  `${outFile}.br`,
  brotliCompressSync(code, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  }),
);

const gzip = gzipSync(code, { level: 9 }).length;
const integrity = `sha384-${createHash('sha384').update(code).digest('base64')}`;
console.log(
  `Embed script /${SDK_PATH}: ${code.length} B raw, ${gzip} B gzip (budget ${LIMIT_BYTES} B)`,
);
console.log(`  integrity="${integrity}"`);

if (gzip > LIMIT_BYTES) {
  console.error(`The embed script is over its budget by ${gzip - LIMIT_BYTES} B gzip.`);
  process.exit(1);
}
// The README's quickstart is copied into merchants' pages: its hash must be this script's.
// `--write-readme` puts it there after a change to the script.
const readmeFile = path.join(root, 'README.md');
const readme = readFileSync(readmeFile, 'utf8');
const pinned = /(\/sdk\/v1\/oya-consent\.js"\s+integrity=")(sha384-[A-Za-z0-9+/=]+)"/;
const published = pinned.exec(readme)?.[2];
if (published && published !== integrity && process.argv.includes('--write-readme')) {
  writeFileSync(readmeFile, readme.replace(pinned, `$1${integrity}"`));
  console.log('  README.md: the quickstart now publishes this hash.');
} else if (published !== integrity) {
  console.error(
    `README.md publishes integrity="${published ?? 'none'}" for the embed script; this build's is ${integrity}. Run: npm run build:sdk -- --write-readme`,
  );
  process.exit(1);
}
