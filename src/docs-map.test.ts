// The project's map, held to the tree: README.md's "Layout" names every folder of src/ (and each
// folder it names exists), its index links every document of docs/, and every repository path a
// document names, as a link or in backticks, exists. A reader who follows the map finds what it
// says. And comments say the rule, not the ticket: no issue number in src/, tests/ or scripts/,
// since the tracker it points at is not where a reader of the code is.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const isDirectory = (file: string) =>
  existsSync(path.join(ROOT, file)) && statSync(path.join(ROOT, file)).isDirectory();

/** Every file under a folder of the repository, as a path from its root. */
function filesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(file) : [file];
  });
}

const foldersOf = (dir: string) =>
  readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.posix.join(dir, entry.name));

/** Whether a path exists; `*` in it stands for any run of characters within one name. */
function exists(file: string): boolean {
  if (!file.includes('*')) return existsSync(path.join(ROOT, file));
  const walk = (dir: string, names: string[]): boolean => {
    const [name, ...more] = names;
    if (name === undefined) return true;
    if (!isDirectory(dir)) return false;
    const escaped = name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
    return readdirSync(path.join(ROOT, dir))
      .filter((entry) => new RegExp(`^${escaped}$`).test(entry))
      .some((entry) => walk(path.posix.join(dir, entry), more));
  };
  return walk('', file.split('/').filter(Boolean));
}

const README = read('README.md');

/** The text of a README section, from its heading to the next heading of its level or above. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README.md has no '${heading}'`);
  const level = heading.indexOf(' ');
  const next = markdown.slice(start + heading.length + 2).search(new RegExp(`\\n#{1,${level}} `));
  return next < 0
    ? markdown.slice(start)
    : markdown.slice(start, start + heading.length + 2 + next);
}

/**
 * The paths the Layout's tree names, each from the repository's root: a line's name sits at two
 * spaces per level (a description's continuation starts far to the right, past column 20).
 */
function layoutPaths(): string[] {
  const tree = /```text\n([\s\S]*?)```/.exec(section(README, '## Layout'))?.[1];
  if (!tree) throw new Error("README.md's Layout has no ```text tree");
  const parents: string[] = [];
  const paths: string[] = [];
  for (const line of tree.split('\n')) {
    const found = /^( *)(\S+)/.exec(line);
    if (!found || (found[1] ?? '').length >= 20) continue;
    const indent = (found[1] ?? '').length;
    if (indent % 2 !== 0) throw new Error(`README.md's Layout: '${line}' is not indented by twos`);
    const depth = indent / 2;
    const name = found[2] ?? '';
    parents.length = depth;
    const full = [...parents, name].join('');
    paths.push(full);
    if (name.endsWith('/')) parents.push(name);
  }
  return paths;
}

/** Every Markdown document that maps the project: the README, the benchmarks' and docs/. */
const DOCUMENTS = [
  'README.md',
  'bench/README.md',
  ...filesUnder('docs').filter((file) => file.endsWith('.md')),
];

/** A document's relative links, each resolved from the document's folder (anchors dropped). */
function linksOf(document: string): string[] {
  return linksIn(read(document), document);
}

/** The links of `markdown`, a part of `document`, as paths from the repository's root. */
function linksIn(markdown: string, document: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => (match[1] ?? '').replace(/#.*$/, ''))
    .filter((target) => target !== '' && !/^[a-z][a-z+.-]*:/i.test(target))
    .map((target) => path.posix.normalize(path.posix.join(path.posix.dirname(document), target)));
}

/** Repository paths named in backticks, inline or in a fenced block: src/…, docs/…, tests/…, … */
function backtickedPathsOf(document: string): string[] {
  const spans = read(document).match(/```[\s\S]*?```|`[^`\n]+`/g) ?? [];
  return spans.flatMap((span) =>
    [...span.matchAll(/(?<![\w./-])((?:src|docs|tests|scripts|bench)\/[\w./*@-]*)/g)].map((match) =>
      (match[1] ?? '').replace(/[.,:;]+$/, ''),
    ),
  );
}

describe("README.md's Layout", () => {
  const named = new Set(layoutPaths());

  it('names every top-level folder of src/', () => {
    expect(foldersOf('src').filter((folder) => !named.has(`${folder}/`))).toEqual([]);
  });

  it('names every folder one level below those, where the parts of each room live', () => {
    const second = foldersOf('src').flatMap(foldersOf);
    expect(second.filter((folder) => !named.has(`${folder}/`))).toEqual([]);
  });

  it('names only folders and files that exist', () => {
    expect(
      [...named].filter((entry) =>
        entry.endsWith('/') ? !isDirectory(entry.slice(0, -1)) : !exists(entry),
      ),
    ).toEqual([]);
  });
});

describe('the documents', () => {
  it("are each linked from the README's index", () => {
    const linked = new Set(linksIn(section(README, '## Where to read next'), 'README.md'));
    expect(filesUnder('docs').filter((file) => !linked.has(file))).toEqual([]);
  });

  it('link only to files that exist', () => {
    const broken = DOCUMENTS.flatMap((document) =>
      linksOf(document)
        .filter((target) => !exists(target))
        .map((target) => `${document}: ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('name in backticks only repository paths that exist', () => {
    const missing = DOCUMENTS.flatMap((document) =>
      backtickedPathsOf(document)
        .filter((file) => !exists(file))
        .map((file) => `${document}: ${file}`),
    );
    expect(missing).toEqual([]);
  });
});

describe('comments and test titles', () => {
  const TEXT = /\.(ts|tsx|mts|mjs|js|css|html|md|sh|sql)$/;
  const ISSUE_NUMBER = /[Ii]ssue [0-9]+|issue-[0-9]+/;

  it('say the rule, not the ticket: no issue number in src/, tests/ or scripts/', () => {
    const found = ['src', 'tests', 'scripts']
      .flatMap(filesUnder)
      .filter((file) => TEXT.test(file))
      .flatMap((file) =>
        read(file)
          .split('\n')
          .flatMap((line, index) => (ISSUE_NUMBER.test(line) ? [`${file}:${index + 1}`] : [])),
      );
    expect(found).toEqual([]);
  });

  /*
   * A path a comment names (`services/payments/card-tries.ts`) is a file of the tree: read from
   * the commenting file's folder, the repository's root, src/, src/server/ or src/web/, or as the
   * end of one file's path. A path under a setting (`DATA_DIR/operator.json`) or the build's
   * output (`dist/…`) is not the repository's, and is not looked for.
   */
  it('name only files that exist', () => {
    const FILES = ['src', 'scripts', 'tests', 'bench'].flatMap(filesUnder);
    const COMMENT = /\/\/[^\n]*|\/\*[\s\S]*?\*\//g;
    const PATH = /(?<![\w./$-])((?:[\w.-]+\/)+[\w.-]+\.(?:tsx?|md|sql|json|sh|css))\b/g;
    const NOT_OURS = /^(?:[A-Z][A-Z_]+|dist|node_modules)\//;
    const found = (from: string, named: string) =>
      [path.posix.dirname(from), '', 'src', 'src/server', 'src/web'].some((dir) =>
        existsSync(path.join(ROOT, dir, named)),
      ) || FILES.some((file) => file.endsWith(`/${named}`));
    const missing = FILES.filter((file) => /\.(ts|tsx|mts|mjs|js)$/.test(file)).flatMap((file) =>
      (read(file).match(COMMENT) ?? []).flatMap((comment) =>
        [...comment.matchAll(PATH)]
          .map((match) => match[1]!)
          .filter((named) => !NOT_OURS.test(named) && !found(file, named))
          .map((named) => `${file}: ${named}`),
      ),
    );
    expect(missing).toEqual([]);
  });
});
