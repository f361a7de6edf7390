// Builds the embed script (src/sdk):
// - the hosted classic script at its version's address, dist/web/sdk/v<version>/oya-consent.js,
//   served `immutable` (src/server/routes/pages.ts), and every earlier release kept in
//   sdk-releases/, so a page that pinned one by its integrity hash never breaks;
// - the same script at its major's moving address, dist/web/sdk/v<major>/oya-consent.js,
//   served with a short cache;
// - dist/web/sdk/manifest.json: each version's address and integrity (sha384);
// - the npm package, dist/sdk-package/ (scripts/sdk-package.ts).
// Each script with its .br and .gz beside it, as vite.config.ts writes them for the page.
// Fails when the script passes 8 KB gzip, when it changed and its version did not (a released
// version is never rebuilt differently: bump SDK_VERSION in src/sdk/version.ts), or when the
// README's integrity hash is not this build's. Run after `vite build`, which empties dist/web
// (npm run build runs both). A new version's script is written to sdk-releases/: commit it.
//
//   tsx scripts/build-sdk.ts [--write-readme]
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { SDK_VERSION } from '../src/sdk/version';
import { buildClassicScript, buildSdkPackage } from './sdk-package';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** KB as the issue and Vite count them: 1,000 bytes. */
const LIMIT_BYTES = 8 * 1000;
const SCRIPT = 'oya-consent.js';
const releasesDir = path.join(root, 'sdk-releases');
const releasesFile = path.join(releasesDir, 'manifest.json');
const sdkDir = path.join(root, 'dist/web/sdk');

const integrityOf = (code: Uint8Array) =>
  `sha384-${createHash('sha384').update(code).digest('base64')}`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Writes a script where the app serves it, with its compressed copies. */
function publish(address: string, code: Uint8Array) {
  const file = path.join(sdkDir, address);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, code);
  writeFileSync(`${file}.gz`, gzipSync(code, { level: 9 }));
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(code, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
  );
}

const code = await buildClassicScript();
const integrity = integrityOf(code);
const gzip = gzipSync(code, { level: 9 }).length;
const versioned = `v${SDK_VERSION}/${SCRIPT}`;
const alias = `v${SDK_VERSION.split('.')[0]}/${SCRIPT}`;
console.log(
  `Embed script /sdk/${versioned}: ${code.length} B raw, ${gzip} B gzip (budget ${LIMIT_BYTES} B)`,
);
console.log(`  integrity="${integrity}"`);
if (gzip > LIMIT_BYTES) {
  fail(`The embed script is over its budget by ${gzip - LIMIT_BYTES} B gzip.`);
}

// A released version is what merchants pinned: this build must be it, byte for byte.
const releases: Record<string, string> = existsSync(releasesFile)
  ? (JSON.parse(readFileSync(releasesFile, 'utf8')) as Record<string, string>)
  : {};
const releasedFile = path.join(releasesDir, versioned);
if (existsSync(releasedFile)) {
  if (integrityOf(readFileSync(releasedFile)) !== integrity) {
    fail(
      `The embed script changed, but v${SDK_VERSION} is released (sdk-releases/${versioned}) and pages pin its integrity ${releases[SDK_VERSION] ?? ''}. Bump SDK_VERSION in src/sdk/version.ts.`,
    );
  }
} else {
  mkdirSync(path.dirname(releasedFile), { recursive: true });
  writeFileSync(releasedFile, code);
  releases[SDK_VERSION] = integrity;
  writeFileSync(releasesFile, `${JSON.stringify(releases, null, 2)}\n`);
  console.log(`  released v${SDK_VERSION}: commit sdk-releases/${versioned} and its manifest.`);
}

// Every release at its own address; the newest also at its major's.
const served: Record<string, { url: string; integrity: string }> = {};
for (const version of readdirSync(releasesDir).filter((name) => /^v\d+\.\d+\.\d+$/.test(name))) {
  const release = readFileSync(path.join(releasesDir, version, SCRIPT));
  publish(`${version}/${SCRIPT}`, release);
  served[version.slice(1)] = { url: `/sdk/${version}/${SCRIPT}`, integrity: integrityOf(release) };
}
publish(alias, code);
mkdirSync(sdkDir, { recursive: true });
writeFileSync(
  path.join(sdkDir, 'manifest.json'),
  `${JSON.stringify({ latest: SDK_VERSION, alias: `/sdk/${alias}`, releases: served }, null, 2)}\n`,
);

await buildSdkPackage(path.join(root, 'dist/sdk-package'), code);
console.log(
  `  package dist/sdk-package (${SDK_VERSION}): npm publish ./dist/sdk-package --access public`,
);

// The README's quickstart is copied into merchants' pages: its address and hash must be this
// script's. `--write-readme` puts them there after a new version.
const readmeFile = path.join(root, 'README.md');
const readme = readFileSync(readmeFile, 'utf8');
const pinned =
  /(\/sdk\/)(v\d+\.\d+\.\d+\/oya-consent\.js)("\s+integrity=")(sha384-[A-Za-z0-9+/=]+)"/;
const [, , publishedPath, , publishedHash] = pinned.exec(readme) ?? [];
if (publishedPath === versioned && publishedHash === integrity) {
  // The README publishes this build.
} else if (publishedPath && process.argv.includes('--write-readme')) {
  writeFileSync(readmeFile, readme.replace(pinned, `$1${versioned}$3${integrity}"`));
  console.log('  README.md: the quickstart now publishes this address and hash.');
} else {
  fail(
    `README.md publishes ${publishedPath ?? 'no versioned address'} with integrity="${publishedHash ?? 'none'}" for the embed script; this build's is /sdk/${versioned} with ${integrity}. Run: npm run build:sdk -- --write-readme`,
  );
}
