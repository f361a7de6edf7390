// The product's long files: every file of `src/` that is not a test, a provider contract suite,
// a type declaration or part of the test harness (`src/server/testing`), with its length in
// lines. Prints those over `max` lines (default 800), the longest first, and their count: the
// figure the house's rule on files is held to (src/file-lengths.test.ts).
//
//   npx tsx scripts/file-lengths.ts [max]
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

export type TFileLength = { file: string; lines: number };

const testFile = /\.(test|spec|check|contract)\.tsx?$|\.d\.ts$/;
const harness = join('src', 'server', 'testing');

function productFiles(root: string, dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return relative(root, path) === harness ? [] : productFiles(root, path);
    return /\.tsx?$/.test(entry.name) && !testFile.test(entry.name) ? [path] : [];
  });
}

/** Every product file of `root`'s `src/` with its length in lines, the longest first. */
export function fileLengths(root: string): TFileLength[] {
  return productFiles(root, join(root, 'src'))
    .map((path) => ({
      file: relative(root, path),
      lines: readFileSync(path, 'utf8').split('\n').length - 1,
    }))
    .sort((a, b) => b.lines - a.lines);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const max = Number(process.argv[2] ?? 800);
  const over = fileLengths(process.cwd()).filter((f) => f.lines > max);
  for (const f of over) console.log(`${String(f.lines).padStart(5)}  ${f.file}`);
  console.log(`files over ${max} lines: ${over.length}`);
}
