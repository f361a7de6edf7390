import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin, type Rollup } from 'vite';

const outDir = path.resolve('dist/web');

/**
 * The lazy modules of the consent page's first screens, by the name the server knows them by
 * (src/server/routes/pages.ts): the consent route, and the screens it may draw first.
 */
const FIRST_SCREEN_MODULES = {
  route: 'src/web/app/routes/consent-route.tsx',
  'auth-prompt': 'src/web/features/auth/auth-prompt-view.tsx',
  'immediate-payment': 'src/web/features/payment/pay-now-view.tsx',
  'side-panel': 'src/web/features/consent/consent-side-panel.tsx',
  settled: 'src/web/features/consent/settled-screens.ts',
  summary: 'src/web/features/consent/consent-overview.tsx',
} as const;
/** Read by the server (src/server/routes/pages.ts); in .vite/, so never served. */
const FIRST_SCREEN_CHUNKS_FILE = '.vite/first-screen-chunks.json';

/**
 * Lists, for each of FIRST_SCREEN_MODULES, its script and every chunk it imports statically (the
 * entry's own chunks aside): the server names those of the screen it drew in the page's HTML as
 * module preloads, so they download beside the entry instead of one after another.
 */
function firstScreenChunks(): Plugin {
  return {
    name: 'oya:first-screen-chunks',
    apply: 'build',
    // After Vite's own: a chunk of CSS alone is gone from the bundle by then (its CSS joined
    // the chunks that import it), so the list names only files the build writes.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const chunks = Object.values(bundle).filter(
          (output): output is Rollup.OutputChunk => output.type === 'chunk',
        );
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const closure = (chunk: Rollup.OutputChunk, files = new Set<string>()) => {
          if (chunk.isEntry || files.has(chunk.fileName)) return files;
          files.add(chunk.fileName);
          for (const imported of chunk.imports) {
            const next = byFile.get(imported);
            if (next) closure(next, files);
          }
          return files;
        };
        const lists = Object.fromEntries(
          Object.entries(FIRST_SCREEN_MODULES).map(([name, module]) => {
            const chunk = chunks.find((c) => c.moduleIds.includes(path.resolve(module)));
            if (!chunk) this.error(`No chunk for ${module}: is it still loaded lazily?`);
            return [name, [...closure(chunk)]];
          }),
        );
        this.emitFile({
          type: 'asset',
          fileName: FIRST_SCREEN_CHUNKS_FILE,
          source: `${JSON.stringify(lists, null, 2)}\n`,
        });
      },
    },
  };
}

/** The dashboard's page (docs/dashboard.md), built apart from the payer's: see dashboardBuild. */
const DASHBOARD_ENTRY = 'dashboard/index.html';
/** Where its HTML goes: in .vite/, which the static files never serve; its route serves it
 * with a nonce (src/server/routes/dashboard-routes.ts DASHBOARD_HTML). */
const DASHBOARD_HTML = '.vite/dashboard.html';

/**
 * Builds the merchant dashboard once the payer's page is built, as a build of its own into the
 * same folder: a second entry in the payer's build would share chunks with it and change the
 * payer's first screen (its entry, its shell); apart, nothing of the payer's build moves and
 * none of the dashboard's code is in it. Its HTML goes to DASHBOARD_HTML. Before precompress,
 * which then compresses the dashboard's files too.
 */
function dashboardBuild(): Plugin {
  return {
    name: 'oya:dashboard-build',
    apply: 'build',
    closeBundle: {
      order: 'pre',
      sequential: true,
      async handler() {
        await build({
          configFile: false,
          root: 'src/web',
          logLevel: 'warn',
          plugins: [
            react(),
            {
              name: 'oya:dashboard-page',
              generateBundle: {
                order: 'post',
                handler(_options, bundle) {
                  const page = bundle[DASHBOARD_ENTRY];
                  if (!page) this.error(`The build wrote no ${DASHBOARD_ENTRY}`);
                  page.fileName = DASHBOARD_HTML;
                },
              },
            },
          ],
          build: {
            outDir,
            emptyOutDir: false,
            sourcemap: 'hidden',
            rolldownOptions: { input: path.resolve('src/web', DASHBOARD_ENTRY) },
          },
        });
      },
    },
  };
}

/** What the server may send compressed: text files of the build, never the source maps. */
const COMPRESSIBLE = /\.(js|css|svg|json|txt)$/;

/**
 * Writes `.br` (brotli, best) and `.gz` (gzip -9) beside every compressible file of the build,
 * once, so the server sends them as they are (@fastify/static `preCompressed`,
 * src/server/routes/pages.ts) instead of compressing each answer again.
 */
function precompress(): Plugin {
  return {
    name: 'oya:precompress',
    apply: 'build',
    closeBundle() {
      const files = readdirSync(outDir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name))
        // .vite/ holds the build's manifest: not served, not sent.
        .filter((file) => !path.relative(outDir, file).startsWith('.'));
      for (const file of files) {
        const content = readFileSync(file);
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(content, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
            },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

/** Module id → the first-screen chunk it goes in (firstScreenGrouping). */
const firstScreenGroups = new Map<string, string>();

/**
 * Puts the code of each part of the consent's first screen in one chunk, instead of the two dozen
 * small ones the bundler would share out: every file costs a request and compresses alone, and
 * together they compress better (gzip -9: 5 KB less on each first screen). The consent route's
 * chunk takes what the route imports and what two parts share; each part (FIRST_SCREEN_MODULES)
 * takes the rest of what it imports. Everything the entry imports goes in one chunk, 'shell':
 * left to itself the bundler cuts what the entry shares with later chunks (React, TanStack Query,
 * our small modules) into chunks of their own, a dozen on the first screen, and it cut more with
 * each shared module added (3.5 KB gzip less on the auth prompt with the shell). The entry's own
 * file is then a facade that loads it. Read from the module graph once it is whole (buildEnd comes
 * before chunking); `includeDependenciesRecursively: false` below, or a part's group would take
 * what it shares with the shell.
 */
function firstScreenGrouping(): Plugin {
  return {
    name: 'oya:first-screen-grouping',
    apply: 'build',
    buildEnd() {
      const closure = (id: string, seen = new Set<string>()) => {
        if (seen.has(id)) return seen;
        seen.add(id);
        for (const next of this.getModuleInfo(id)?.importedIds ?? []) closure(next, seen);
        return seen;
      };
      const entry = closure(path.resolve('src/web/main.tsx'));
      const route = closure(path.resolve(FIRST_SCREEN_MODULES.route));
      const parts = (
        ['summary', 'auth-prompt', 'immediate-payment', 'side-panel', 'settled'] as const
      ).map((name) => [name, closure(path.resolve(FIRST_SCREEN_MODULES[name]))] as const);
      const count = new Map<string, number>();
      for (const [, ids] of parts) for (const id of ids) count.set(id, (count.get(id) ?? 0) + 1);
      firstScreenGroups.clear();
      for (const id of entry) firstScreenGroups.set(id, 'shell');
      for (const id of route) if (!entry.has(id)) firstScreenGroups.set(id, 'consent-route');
      for (const [name, ids] of parts) {
        for (const id of ids) {
          if (entry.has(id) || firstScreenGroups.has(id)) continue;
          firstScreenGroups.set(id, (count.get(id) ?? 0) > 1 ? 'consent-route' : name);
        }
      }
    },
  };
}

export default defineConfig({
  root: 'src/web',
  plugins: [react(), firstScreenGrouping(), firstScreenChunks(), dashboardBuild(), precompress()],
  build: {
    outDir,
    emptyOutDir: true,
    // Maps are written for error reporting but not referenced from the bundles; the server
    // does not serve them (routes/pages.ts).
    sourcemap: 'hidden',
    // .vite/manifest.json: which chunks and styles each entry loads, read by the page budget
    // check (scripts/check-page-budget.ts). A dot-folder: the server does not serve it.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // zod parses every API answer but is never needed for the first paint (the Loading
          // screen): its own chunk, loaded with the consent page, cached across deploys.
          groups: [
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
            {
              name: (id) => firstScreenGroups.get(id) ?? null,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/sandbox': 'http://localhost:3000' },
  },
});
