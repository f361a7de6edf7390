import * as nodeFs from 'node:fs';
import type { Stats } from 'node:fs';
import path from 'node:path';

/*
 * DATA_DIR holds the embedded database, the payers' uploaded files and the operator's token: no
 * other user of the machine may read or change any of it. Creating files 0600 is not enough on
 * its own: PGlite writes its files through Emscripten, which sets modes itself (0666 for the
 * files it copies in at a first start, 0644 for some it rewrites at each start), whatever the
 * process's umask. So the directory and what the server keeps in it are made private by mode,
 * again after PGlite opened it: directories 0700, files 0600 (an owner's execute bit is kept).
 */

const OTHERS = 0o077;

/** What makePrivate changed: how many entries had group or other bits, now taken away. */
export type TPrivacyFix = { changed: number };

/** An entry removed while it was being made private (a temporary file of the running database). */
const gone = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** The file system calls makePrivate makes: node's, or a test's that removes entries meanwhile. */
export type TPrivacyFs = Pick<
  typeof nodeFs,
  'chmodSync' | 'lstatSync' | 'mkdirSync' | 'readdirSync' | 'statSync'
>;

function chmodPrivate(fs: TPrivacyFs, entry: string, stats: Stats): boolean {
  if ((stats.mode & OTHERS) === 0) return false;
  try {
    fs.chmodSync(entry, stats.mode & 0o700);
  } catch (error) {
    if (gone(error)) return false;
    throw new Error(
      `${entry} is open to other users and cannot be made private (${(error as NodeJS.ErrnoException).code}): give DATA_DIR to the user the server runs as, or choose another DATA_DIR.`,
      { cause: error },
    );
  }
  return true;
}

/**
 * Creates `dir` (0700) if missing, and takes every group and other permission bit away from it
 * and from what is under it: everything, or with `ours` only the entries of those names (what the
 * server keeps there) and all below them. A directory open to others that holds anything else is
 * refused, untouched: it is not the server's to change (DATA_DIR=/tmp by mistake). Symbolic links
 * are left alone. Throws one clear line when a mode cannot be changed or the directory is refused.
 */
export function makePrivate(
  dir: string,
  ours?: readonly string[],
  fs: TPrivacyFs = nodeFs,
): TPrivacyFix {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const names = fs.readdirSync(dir);
  const root = fs.statSync(dir);
  const foreign = ours ? names.filter((name) => !ours.includes(name)) : [];
  if (root.mode & OTHERS && foreign.length > 0) {
    throw new Error(
      `DATA_DIR ${dir} is open to other users and holds what the server did not put there (${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', …' : ''}): give the server a directory of its own.`,
    );
  }
  let changed = 0;
  const fix = (entry: string, stats: Stats) => {
    if (chmodPrivate(fs, entry, stats)) changed += 1;
  };
  const visit = (entry: string) => {
    let stats: Stats;
    try {
      stats = fs.lstatSync(entry);
    } catch {
      return; // Gone since it was listed (a temporary file).
    }
    if (stats.isSymbolicLink()) return;
    fix(entry, stats);
    if (!stats.isDirectory()) return;
    let names: string[];
    try {
      names = fs.readdirSync(entry);
    } catch (error) {
      if (gone(error)) return;
      throw error;
    }
    for (const name of names) visit(path.join(entry, name));
  };
  fix(dir, root);
  for (const name of names) {
    if (!ours || ours.includes(name)) visit(path.join(dir, name));
  }
  return { changed };
}
