import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileLengths } from '../scripts/file-lengths';

// The house's rule on files (STYLE.md): small files named for what they hold. No product file is
// over 800 lines; `npx tsx scripts/file-lengths.ts` lists those that are.
const ROOT = path.resolve(import.meta.dirname, '..');
const MAX = 800;

// The embed script's released file is pinned by its hash (docs/sdk.md): cutting it is a release
// of its own.
const RELEASED = 'src/sdk/oya-consent.ts';

describe('the files of src/', () => {
  const lengths = fileLengths(ROOT);
  const named = (f: { file: string; lines: number }) => `${f.file} (${f.lines} lines)`;

  it('are counted: the tree is read', () => {
    expect(lengths.length).toBeGreaterThan(300);
  });

  it(`are none over ${MAX} lines, but the released embed script`, () => {
    const over = lengths.filter((f) => f.lines > MAX && f.file !== RELEASED);
    expect(over.map(named)).toEqual([]);
  });
});
