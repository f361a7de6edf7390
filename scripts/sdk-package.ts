// The embed script as an npm package, @oya-money/consent-sdk (docs/sdk.md): ESM (the script and
// its React bindings, sharing one copy of the script), the classic script that defines
// window.OyaConsent, and TypeScript declarations. Built from src/sdk by scripts/build-sdk.ts into
// dist/sdk-package/, publishable with `npm publish ./dist/sdk-package --access public`
// (docs/sdk.md); src/sdk/sdk-package.test.ts packs and installs it as a merchant would.
//
// Why a folder the build writes rather than a workspace: the package is src/sdk and one domain
// file, built by the same esbuild as the hosted script; a second package.json in the repository
// would bring npm workspaces for one manifest.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { SDK_VERSION } from '../src/sdk/version';

export const PACKAGE_NAME = '@oya-money/consent-sdk';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Browsers merchants' payers use; esbuild fails on any syntax it cannot lower to these. */
export const SDK_TARGET: BuildOptions['target'] = ['es2019', 'chrome80', 'safari13', 'firefox78'];

/** The hosted classic script, minified: window.OyaConsent. */
export async function buildClassicScript(): Promise<Uint8Array> {
  const result = await build({
    entryPoints: [path.join(root, 'src/sdk/global.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: SDK_TARGET,
    legalComments: 'none',
    write: false,
  });
  const code = result.outputFiles[0]?.contents;
  if (!code) throw new Error('esbuild wrote no output for the embed script');
  return code;
}

const manifest = {
  name: PACKAGE_NAME,
  version: SDK_VERSION,
  description:
    'Opens an Oya consent page on a merchant page, in a modal or inline, and reports what the payer did: typed events, a React hook and component.',
  type: 'module',
  sideEffects: ['./oya-consent.global.js'],
  exports: {
    '.': { types: './types/sdk/oya-consent.d.ts', default: './index.js' },
    './react': { types: './types/sdk/react.d.ts', default: './react.js' },
    './global': { types: './types/sdk/global.d.ts', default: './oya-consent.global.js' },
    './package.json': './package.json',
  },
  types: './types/sdk/oya-consent.d.ts',
  unpkg: './oya-consent.global.js',
  peerDependencies: { react: '>=18' },
  peerDependenciesMeta: { react: { optional: true } },
  keywords: ['oya', 'consent', 'payments', 'embed', 'react'],
};

/** Writes the package into `outDir` (emptied first), with `classic` as its global script. */
export async function buildSdkPackage(outDir: string, classic: Uint8Array): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: {
      index: path.join(root, 'src/sdk/oya-consent.ts'),
      react: path.join(root, 'src/sdk/react.ts'),
    },
    outdir: outDir,
    bundle: true,
    // One copy of the script for both entries: the modals' scroll lock is counted once.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    // A merchant's bundler lowers it further for its own browsers.
    target: 'es2020',
    external: ['react'],
    legalComments: 'none',
  });
  writeFileSync(path.join(outDir, 'oya-consent.global.js'), classic);
  execFileSync(
    process.execPath,
    [
      path.join(root, 'node_modules/typescript/bin/tsc'),
      '-p',
      path.join(root, 'tsconfig.sdk.json'),
      '--outDir',
      path.join(outDir, 'types'),
    ],
    { stdio: 'inherit' },
  );
  writeFileSync(path.join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  copyFileSync(path.join(root, 'docs/sdk.md'), path.join(outDir, 'README.md'));
}
