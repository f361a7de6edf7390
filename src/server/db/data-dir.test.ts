// DATA_DIR made private while the embedded database runs in it: a temporary file or folder it
// removes between being listed and being changed is gone, not a failure to start.
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makePrivate, type TPrivacyFs } from './data-dir';

/** Paths the running database removes as they are reached: chmod and readdir find them gone. */
const VANISHING = 'vanishing';
/** A path whose mode this user may not change. */
const DENIED = 'denied';

/** Throws as the file system does for the paths above. */
function failing(entry: unknown): void {
  for (const [name, code] of [
    [VANISHING, 'ENOENT'],
    [DENIED, 'EPERM'],
  ] as const) {
    if (String(entry).includes(name)) {
      throw Object.assign(new Error(`${code}: ${String(entry)}`), { code });
    }
  }
}
/** Node's file system, but for the paths above, which fail as named. */
const racingFs: TPrivacyFs = {
  ...fs,
  chmodSync: (entry, mode) => {
    failing(entry);
    fs.chmodSync(entry, mode);
  },
  readdirSync: ((entry: fs.PathLike) => {
    failing(entry);
    return fs.readdirSync(entry);
  }) as TPrivacyFs['readdirSync'],
};

const dir = fs.mkdtempSync(path.join(tmpdir(), 'consent-data-dir-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('makePrivate', () => {
  it('makes the rest private when an entry is removed while it runs', () => {
    const pglite = path.join(dir, 'pglite');
    fs.mkdirSync(path.join(pglite, `${VANISHING}-folder`), { recursive: true });
    fs.writeFileSync(path.join(pglite, 'kept'), 'x');
    fs.writeFileSync(path.join(pglite, `${VANISHING}-file`), 'x');
    for (const entry of [dir, pglite, path.join(pglite, `${VANISHING}-folder`)]) {
      fs.chmodSync(entry, 0o777);
    }
    for (const entry of ['kept', `${VANISHING}-file`])
      fs.chmodSync(path.join(pglite, entry), 0o666);

    expect(makePrivate(dir, undefined, racingFs)).toEqual({ changed: 3 });
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(pglite).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(pglite, 'kept')).mode & 0o777).toBe(0o600);
  });

  it('still stops on a mode it cannot change for another reason, naming the entry', () => {
    const denied = path.join(dir, DENIED);
    fs.writeFileSync(denied, 'x');
    fs.chmodSync(denied, 0o666);
    expect(() => makePrivate(dir, undefined, racingFs)).toThrow(
      `${denied} is open to other users and cannot be made private (EPERM)`,
    );
  });
});
