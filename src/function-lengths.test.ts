import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { functionLengths } from '../scripts/function-lengths';

// The house's rule on length (STYLE.md): a function says one thing. None of the product's is over
// 150 lines, and no more than 40 reach 100; `npx tsx scripts/function-lengths.ts` lists them.
const ROOT = path.resolve(import.meta.dirname, '..');

describe('the functions of src/', () => {
  const lengths = functionLengths(ROOT);
  const named = (f: { file: string; line: number; name: string; lines: number }) =>
    `${f.file}:${f.line} ${f.name} (${f.lines} lines)`;

  it('are counted: the tree is read', () => {
    expect(lengths.length).toBeGreaterThan(1_000);
  });

  // The embed script's `open` is the one left: its released script is pinned by its hash
  // (docs/sdk.md), so cutting it is a release of its own, and a bigger script for every merchant.
  const released = (f: { file: string }) => f.file === 'src/sdk/oya-consent.ts';

  it('are none over 150 lines, but the released embed script', () => {
    expect(lengths.filter((f) => f.lines > 150 && !released(f)).map(named)).toEqual([]);
  });

  it('reach 100 lines no more than 40 times', () => {
    const long = lengths.filter((f) => f.lines >= 100).map(named);
    expect(long.length, long.join('\n')).toBeLessThanOrEqual(40);
  });
});
