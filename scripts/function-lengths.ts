// The product's long functions: every function, method and arrow function of `src/` (tests
// aside) with its length in lines, the longest first. Prints those of `min` lines or more
// (default 100) and the count of each band, the figures the house's rule is held to
// (src/function-lengths.test.ts): none over 150 lines, no more than 40 of 100 or more.
//
//   npx tsx scripts/function-lengths.ts [min]
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export type TLongFunction = { file: string; name: string; line: number; lines: number };

// Tests, the provider contract suites (describe blocks run by each adapter's tests) and types.
const testFile = /\.(test|spec|check|contract)\.tsx?$|\.d\.ts$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !testFile.test(entry.name) ? [path] : [];
  });
}

function functionName(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) {
    return node.name.getText();
  }
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))
    return parent.name.getText();
  if (ts.isCallExpression(parent)) return `${parent.expression.getText().slice(0, 40)}(…)`;
  return '(anonymous)';
}

/** Every function of `root`'s product source with its length, the longest first. */
export function functionLengths(root: string): TLongFunction[] {
  const found: TLongFunction[] = [];
  for (const path of sourceFiles(join(root, 'src'))) {
    const text = readFileSync(path, 'utf8');
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        found.push({
          file: relative(root, path),
          name: functionName(node),
          line: start + 1,
          lines: end - start + 1,
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.sort((a, b) => b.lines - a.lines);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const min = Number(process.argv[2] ?? 100);
  const all = functionLengths(process.cwd());
  for (const f of all.filter((f) => f.lines >= min)) {
    console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`);
  }
  console.log(
    `over 150: ${all.filter((f) => f.lines > 150).length}; 100 or more: ${all.filter((f) => f.lines >= 100).length}`,
  );
}
