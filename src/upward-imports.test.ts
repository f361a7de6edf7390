import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { upwardImports } from '../scripts/upward-imports';

// The house's floors (scripts/upward-imports.ts): an import reaches down, never up. Those that
// still run up are listed by `npx tsx scripts/upward-imports.ts`; their number only falls.
const ROOT = path.resolve(import.meta.dirname, '..');
const MAX = 5;

describe("the server's imports", () => {
  const found = upwardImports(ROOT);

  it('are read: a known upward import is found', () => {
    expect(found).toContainEqual({
      from: path.join('src', 'server', 'config.ts'),
      to: path.join('src', 'server', 'providers', 'adapters.ts'),
      floors: [1, 2],
    });
  });

  it(`run back up the house ${MAX} times at most`, () => {
    const named = found.map(({ from, to }) => `${from} → ${to}`).join('\n');
    expect(found.length, named).toBeLessThanOrEqual(MAX);
  });
});
