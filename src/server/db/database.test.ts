import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makePrivate } from './data-dir';
import { openDatabase } from './database';
import { openToOthers } from '../testing/files';

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

describe('a PGlite data directory on disk', () => {
  it("is its user's only: no file or folder open to others after opening, writing and opening again", async () => {
    const dataDir = path.join(dir, 'new-data');
    const first = await openDatabase({
      kind: 'pglite',
      dataDir,
      template: inject('pgliteTemplate'),
    });
    expect(openToOthers(dataDir)).toEqual([]);
    await first.db.execute('create table written (id int, note text)');
    await first.db.execute(
      "insert into written select n, repeat('x', 500) from generate_series(1, 20000) n",
    );
    await first.db.execute('create index on written (note)');
    await first.db.execute('checkpoint');
    expect(openToOthers(dataDir)).toEqual([]);
    await first.close();
    expect(openToOthers(dataDir)).toEqual([]);
    // PGlite rewrites some files at every opening.
    const again = await openDatabase({ kind: 'pglite', dataDir });
    await again.db.execute('insert into written values (0, null)');
    expect(openToOthers(dataDir)).toEqual([]);
    await again.close();
  });

  it('makes an existing directory that everyone could read and write private', async () => {
    const dataDir = path.join(dir, 'open-data');
    const made = await openDatabase({
      kind: 'pglite',
      dataDir,
      template: inject('pgliteTemplate'),
    });
    await made.close();
    mkdirSync(path.join(dataDir, 'form-files', 'rsp_1'), { recursive: true });
    writeFileSync(path.join(dataDir, 'form-files', 'rsp_1', 'file_1'), 'an ID card');
    const chmodTree = (entry: string) => {
      const stats = lstatSync(entry);
      chmodSync(entry, stats.isDirectory() ? 0o777 : 0o666);
      if (stats.isDirectory())
        for (const name of readdirSync(entry)) chmodTree(path.join(entry, name));
    };
    chmodTree(dataDir);

    const open = openToOthers(dataDir).length;
    expect(open).toBeGreaterThan(1000);
    expect(makePrivate(dataDir, ['pglite', 'form-files', 'operator.json']).changed).toBe(open);
    expect(openToOthers(dataDir)).toEqual([]);
    expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
    expect(lstatSync(path.join(dataDir, 'form-files', 'rsp_1', 'file_1')).mode & 0o777).toBe(0o600);
    expect(makePrivate(dataDir).changed).toBe(0);
  });

  it('refuses, untouched, a directory open to others that holds what the server did not put there', () => {
    const shared = path.join(dir, 'shared');
    mkdirSync(path.join(shared, 'pglite'), { recursive: true });
    writeFileSync(path.join(shared, 'someone-elses.txt'), 'not ours');
    chmodSync(shared, 0o777);
    chmodSync(path.join(shared, 'someone-elses.txt'), 0o666);
    expect(() => makePrivate(shared, ['pglite', 'form-files', 'operator.json'])).toThrow(
      `DATA_DIR ${shared} is open to other users and holds what the server did not put there (someone-elses.txt): give the server a directory of its own.`,
    );
    expect(lstatSync(shared).mode & 0o777).toBe(0o777);
    expect(lstatSync(path.join(shared, 'someone-elses.txt')).mode & 0o777).toBe(0o666);

    // Closed to others, it is the operator's choice what else it holds: only ours is changed.
    chmodSync(shared, 0o700);
    chmodSync(path.join(shared, 'pglite'), 0o755);
    expect(makePrivate(shared, ['pglite', 'form-files', 'operator.json']).changed).toBe(1);
    expect(lstatSync(path.join(shared, 'pglite')).mode & 0o777).toBe(0o700);
    expect(lstatSync(path.join(shared, 'someone-elses.txt')).mode & 0o777).toBe(0o666);
  });
});
