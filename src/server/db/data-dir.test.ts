// DATA_DIR made private while the embedded database runs in it: a temporary file or folder it
// removes between being listed and being changed is gone, not a failure to start.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { makePrivate } from './data-dir';

/** Paths the running database removes as they are reached: chmod and readdir find them gone. */
const VANISHING = 'vanishing';
/** A path whose mode this user may not change. */
const DENIED = 'denied';
/** Whether the paths above fail: only while makePrivate runs, not while the test sets them up. */
const failing = vi.hoisted(() => ({ on: false }));

vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  const removed = (entry: unknown) => {
    if (!failing.on) return;
    for (const [name, code] of [
      [VANISHING, 'ENOENT'],
      [DENIED, 'EPERM'],
    ]) {
      if (name && String(entry).includes(name)) {
        throw Object.assign(new Error(`${code}: ${String(entry)}`), { code });
      }
    }
  };
  return {
    ...fs,
    chmodSync: (entry: string, mode: number) => {
      removed(entry);
      fs.chmodSync(entry, mode);
    },
    readdirSync: ((entry: string) => {
      removed(entry);
      return fs.readdirSync(entry);
    }) as typeof fs.readdirSync,
  };
});

const dir = mkdtempSync(path.join(tmpdir(), 'consent-data-dir-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function whileFailing<T>(run: () => T): T {
  failing.on = true;
  try {
    return run();
  } finally {
    failing.on = false;
  }
}

describe('makePrivate', () => {
  it('makes the rest private when an entry is removed while it runs', () => {
    const pglite = path.join(dir, 'pglite');
    mkdirSync(path.join(pglite, `${VANISHING}-folder`), { recursive: true });
    writeFileSync(path.join(pglite, 'kept'), 'x');
    writeFileSync(path.join(pglite, `${VANISHING}-file`), 'x');
    for (const entry of [dir, pglite, path.join(pglite, `${VANISHING}-folder`)]) {
      chmodSync(entry, 0o777);
    }
    for (const entry of ['kept', `${VANISHING}-file`]) chmodSync(path.join(pglite, entry), 0o666);

    expect(whileFailing(() => makePrivate(dir))).toEqual({ changed: 3 });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(pglite).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(pglite, 'kept')).mode & 0o777).toBe(0o600);
  });

  it('still stops on a mode it cannot change for another reason, naming the entry', () => {
    const denied = path.join(dir, DENIED);
    writeFileSync(denied, 'x');
    chmodSync(denied, 0o666);
    expect(() => whileFailing(() => makePrivate(dir))).toThrow(
      `${denied} is open to other users and cannot be made private (EPERM)`,
    );
  });
});
