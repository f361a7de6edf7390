import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from './database';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'oya-db-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an in-memory PGlite database', () => {
  /** A template made from the tests' own, changed by `change` first. */
  async function changedTemplate(name: string, change: string): Promise<string> {
    const source = await openDatabase({ kind: 'pglite', template: inject('pgliteTemplate') });
    await source.db.execute(change);
    const dump = await (source.db as unknown as { $client: PGlite }).$client.dumpDataDir('gzip');
    await source.close();
    const file = path.join(dir, name);
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    return file;
  }

  it('opens from the template it is given: what the template holds is there', async () => {
    const template = await changedTemplate('marked.tgz', 'create table template_marker (id int)');
    const opened = await openDatabase({ kind: 'pglite', template });
    try {
      const found = await opened.rows(
        { name: 'template_marker', text: `select to_regclass('template_marker')::text` },
        [],
      );
      expect(found).toEqual([['template_marker']]);
    } finally {
      await opened.close();
    }
  });

  it('stops with a clear error when the template it was given did not load', async () => {
    const template = await changedTemplate('unmigrated.tgz', 'drop schema drizzle cascade');
    await expect(openDatabase({ kind: 'pglite', template })).rejects.toThrow(
      'The PGlite template was given but not loaded: the database has no migrations.',
    );
  });
});
