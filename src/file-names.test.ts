import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The house's rule on names (STYLE.md "One name per file across floors"): a domain file and the
// page's file that draws or calls it do not share a name (`pay-now-screen.ts` in src/domain,
// `pay-now-view.tsx` in src/web), so a search, an editor's file picker or a stack trace finds
// the one that is meant. Compared by name without `.ts`/`.tsx`; a test follows its file.
const ROOT = path.resolve(import.meta.dirname, '..');

// The names still on both floors. The list only shrinks: a name leaves it once one of its files
// is renamed, and the test below fails while a name no longer shared stays listed.
const STILL_SHARED = [
  'api-error',
  'auth',
  'identity',
  'payer-consents',
  'payer-protections',
  'payer-rights',
];

/** The names of a folder's files, at any depth, without their extension; tests left out. */
function namesUnder(dir: string): Set<string> {
  const names = readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => entry.name.replace(/\.tsx?$/, ''))
    .filter((name) => !/\.(test|spec)$/.test(name));
  return new Set(names);
}

describe('the names of src/domain and src/web', () => {
  const domain = namesUnder('src/domain');
  const shared = [...namesUnder('src/web')].filter((name) => domain.has(name)).sort();

  it('are read: both floors have files', () => {
    expect(domain.size).toBeGreaterThan(50);
  });

  it('are not shared, but the listed ones', () => {
    expect(shared.filter((name) => !STILL_SHARED.includes(name))).toEqual([]);
  });

  it('list only names still shared', () => {
    const renamed = STILL_SHARED.filter((name) => !shared.includes(name));
    expect(renamed, 'no longer shared: take them off STILL_SHARED').toEqual([]);
  });
});
