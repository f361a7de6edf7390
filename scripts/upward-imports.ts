// The server's imports that run back up the house (ARCHITECTURE.md, STYLE.md): each product file
// of src/server sits on a floor, and an import reaches down, never up:
//
//   0 the domain (src/domain)
//   1 what everything stands on: crypto/, db/, events/, observability/ and the server's own
//     small files (config, clock, app-error, http-errors…)
//   2 the adapters: providers/ and the sandbox's network (sandbox/, its routes aside)
//   3 the services and the jobs that run them (services/, jobs/)
//   4 the routes and what describes them (routes/, sandbox/routes/, openapi/)
//   5 what composes it all (app.ts, context.ts, main.ts, serve.ts, and observability/observe.ts,
//     which wires the app's signals and GET /metrics into it)
//
// Prints every value import of a product file to a file on a higher floor, the pairs of floors they
// join and their count: the figure src/upward-imports.test.ts holds.
//
//   npx tsx scripts/upward-imports.ts
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export type TUpwardImport = { from: string; to: string; floors: [number, number] };

const SERVER = join('src', 'server');
const COMPOSITION = ['app.ts', 'context.ts', 'main.ts', 'serve.ts', 'observability/observe.ts'].map(
  (f) => join(SERVER, f),
);
const FLOORS: Array<[prefix: string, floor: number]> = [
  [join(SERVER, 'sandbox', 'routes') + '/', 4],
  [join(SERVER, 'routes') + '/', 4],
  [join(SERVER, 'openapi') + '/', 4],
  [join(SERVER, 'services') + '/', 3],
  [join(SERVER, 'jobs') + '/', 3],
  [join(SERVER, 'providers') + '/', 2],
  [join(SERVER, 'sandbox') + '/', 2],
];

/** The floor of a file of src/: null for the test harness and what is not the server's. */
export function floorOf(file: string): number | null {
  if (file.startsWith(join('src', 'domain') + '/')) return 0;
  if (!file.startsWith(SERVER + '/') || file.startsWith(join(SERVER, 'testing') + '/')) return null;
  if (COMPOSITION.includes(file)) return 5;
  return FLOORS.find(([prefix]) => file.startsWith(prefix))?.[1] ?? 1;
}

const testFile = /\.(test|spec|check|contract)\.tsx?$|\.d\.ts$/;

function serverFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return serverFiles(root, path);
    return /\.ts$/.test(entry.name) && !testFile.test(entry.name) ? [path] : [];
  });
}

// Imports of values: a type-only import (the app's context's type, a port's) carries no code up.
const IMPORT = /(?:^|\n)\s*(?:import|export)\s(?!type\s)[^'";]*?from\s+'(\.[^']+)'/g;

/** The file an import names, as a path from `root`; null when it is no .ts file of the tree. */
function resolved(root: string, file: string, specifier: string): string | null {
  const base = resolve(root, dirname(file), specifier);
  const found = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base].find(
    (path) => path.endsWith('.ts') && existsSync(path),
  );
  return found ? relative(root, found) : null;
}

/** Every import of a server product file that reaches a higher floor than its own. */
export function upwardImports(root: string): TUpwardImport[] {
  return serverFiles(root, SERVER).flatMap((from) => {
    const own = floorOf(from);
    if (own === null) return [];
    return [...readFileSync(join(root, from), 'utf8').matchAll(IMPORT)].flatMap(([, spec]) => {
      const to = spec ? resolved(root, from, spec) : null;
      const floor = to ? floorOf(to) : null;
      return to && floor !== null && floor > own
        ? [{ from, to, floors: [own, floor] as [number, number] }]
        : [];
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = upwardImports(process.cwd());
  for (const { from, to, floors } of found) console.log(`${floors.join(' → ')}  ${from} → ${to}`);
  console.log(`${found.length} imports run back up the house`);
}
