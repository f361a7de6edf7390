// No circle of imports anywhere in src/, type-only and lazy imports included. The lint's
// import-x/no-cycle does not follow `import type` (a fixed choice of the rule), and a circle of
// types is how contracts declared inside a screen come back; this walks every import TypeScript
// sees.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.d\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** The file a relative specifier names, as the bundler resolves it; null for a package. */
function resolve(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile()) ?? null;
}

/** Every import of a file: static, type-only, re-exports and `import()`. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => resolve(file, fileName))
    .filter((found): found is string => found !== null && /\.tsx?$/.test(found));
}

/** The circles of a graph, each once, as the path that closes it. */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('imports in src/', () => {
  it('make no circle, counting type-only and lazy imports', () => {
    const files = sourceFiles(SRC).filter((file) => !/\.test\.tsx?$/.test(file));
    const graph = new Map(files.map((file) => [file, importsOf(file)]));
    const named = circles(graph).map((circle) =>
      circle.map((file) => path.relative(SRC, file)).join(' → '),
    );
    expect(named).toEqual([]);
  });

  it('would see a circle made of type-only imports', () => {
    const graph = new Map([
      ['a.tsx', ['b.tsx']],
      ['b.tsx', ['a.tsx']],
    ]);
    expect(circles(graph)).toEqual([['a.tsx', 'b.tsx', 'a.tsx']]);
    const { importedFiles } = ts.preProcessFile(
      "import type { T } from './a';\nconst B = lazy(() => import('./c'));",
      true,
      true,
    );
    expect(importedFiles.map(({ fileName }) => fileName)).toEqual(['./a', './c']);
  });
});
