// Builds the server for `npm start`: src/server/main.ts bundled into one ES module,
// dist/server/main.mjs, packages included but PGlite, and the migrations beside it
// (src/server/db/database.ts reads them next to itself). Node then loads one file instead of
// compiling some hundred TypeScript files at every start (bench/README.md: bench:start).
// Beside them, the PGlite template: a data directory initialised and migrated once here, with the
// job engine's schema and queues, which a new DATA_DIR starts from instead of running initdb,
// every migration and the engine's first start itself.
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { build } from 'esbuild';
import { PGLITE_TEMPLATE_FILE } from '../src/server/db/database';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const migrations = path.join(root, 'src/server/db/migrations');

const jobs = path.join(root, 'src/server/jobs');

const versionOf = (name: string) =>
  (
    JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

/**
 * What the template depends on: every migration file, the PGlite that made it, and the job
 * engine's queues (pg-boss and the jobs' code). A kind changed elsewhere is still made right at
 * start (jobs/engine.ts), only not ahead of it.
 */
function templateKey(): string {
  const hash = createHash('sha256');
  hash.update(versionOf('@electric-sql/pglite')).update(versionOf('pg-boss'));
  const files = readdirSync(migrations, { recursive: true, encoding: 'utf8' }).sort();
  for (const file of files) {
    const full = path.join(migrations, file);
    if (file.endsWith('.sql') || file.endsWith('.json'))
      hash.update(file).update(readFileSync(full));
  }
  for (const file of readdirSync(jobs).sort()) {
    if (file.endsWith('.ts') && !file.endsWith('.test.ts'))
      hash.update(file).update(readFileSync(path.join(jobs, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The template, made once per set of migrations and job queues (kept in node_modules/.cache
 * between builds: initdb takes seconds). It holds pg-boss's schema and queues too, so neither a
 * first start nor a test file makes them.
 */
export async function pgliteTemplate(): Promise<string> {
  const cacheDir = path.join(root, 'node_modules/.cache/pglite-template');
  const cached = path.join(cacheDir, `${templateKey()}.tgz`);
  if (existsSync(cached)) return cached;
  const client = new PGlite();
  await migrate(drizzle(client), { migrationsFolder: migrations });
  // Loaded only here: the server's modules, for the job engine's kinds.
  const { makeTemplateJobQueues } = await import('../src/server/jobs/template-queues');
  await makeTemplateJobQueues(client);
  // Written out to the data files now: a database opened from the template otherwise replays at
  // each opening the WAL of every migration since initdb's last checkpoint.
  await client.exec('CHECKPOINT');
  const dump = await client.dumpDataDir('gzip');
  await client.close();
  // The build and the tests' setup may make it at once (npm test starts them side by side on a
  // fresh clone): each writes a file of its own and renames it into place, so neither ever copies
  // or opens half of the other's. Other sets' templates go.
  mkdirSync(cacheDir, { recursive: true });
  for (const file of readdirSync(cacheDir)) {
    if (file !== path.basename(cached) && !file.endsWith('.part')) {
      rmSync(path.join(cacheDir, file), { force: true });
    }
  }
  const part = `${cached}.${process.pid}.part`;
  writeFileSync(part, Buffer.from(await dump.arrayBuffer()));
  renameSync(part, cached);
  return cached;
}

/**
 * Writes dist/server (or `folder`, below the repository, two levels deep as dist/server is, so
 * the bundle still finds dist/web and node_modules): main.mjs, migrations/ and the PGlite
 * template. Returns the bundle's path. `commands` adds entry points beside main.mjs, by name and
 * path from the repository (`{ client: 'scripts/client.ts' }` writes client.mjs): the tests run
 * the commands they start from the same build, each sharing main's chunks.
 */
export async function buildServer(
  folder = 'dist/server',
  commands: Record<string, string> = {},
): Promise<string> {
  const outdir = path.join(root, folder);
  rmSync(outdir, { recursive: true, force: true });
  const outfile = path.join(outdir, 'main.mjs');
  const entryPoints = Object.fromEntries(
    Object.entries({ main: 'src/server/main.ts', ...commands }).map(([name, file]) => [
      name,
      path.join(root, file),
    ]),
  );
  await build({
    entryPoints,
    outdir,
    outExtension: { '.js': '.mjs' },
    // main.mjs starts tracing before it loads the server, a chunk of its own beside it (so that
    // modules reading files next to themselves still find them); the tracing SDK is a chunk
    // loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md "Traces").
    splitting: true,
    chunkNames: '[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Packages go in too: resolving and loading hundreds of files from node_modules took
    // 0.7 s of each start. PGlite stays outside (it loads its WebAssembly and data files from
    // its own folder), and so does the API reference page (@fastify/swagger-ui serves Swagger
    // UI's files from its package); pg-native is an optional addon of pg that is not installed.
    // pg stays outside too, loaded from node_modules: the pg instrumentation patches it as it
    // loads (its files, through require), which a copy inside the bundle would never do.
    external: ['@electric-sql/pglite', '@fastify/swagger-ui', 'pg-native', 'pg'],
    // CommonJS packages in an ES module bundle still call require() for Node's built-ins.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    // The consent page's first screen is drawn here by the page's own components
    // (src/web/server-render.tsx): their styles are the page's stylesheet's, not the server's,
    // and React runs as in the page's build.
    loader: { '.css': 'empty' },
    define: { 'process.env.NODE_ENV': '"production"' },
    sourcemap: 'linked',
    keepNames: true,
    logLevel: 'warning',
  });
  cpSync(migrations, path.join(outdir, 'migrations'), { recursive: true });
  cpSync(await pgliteTemplate(), path.join(outdir, PGLITE_TEMPLATE_FILE));
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(`server bundle: ${path.relative(root, await buildServer())}`);
}
