import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';

/*
 * DATA_DIR holds the embedded database, the payers' uploaded files and the operator's token: no
 * other user of the machine may read or change any of it. Creating files 0600 is not enough on
 * its own: PGlite writes its files through Emscripten, which sets modes itself (0666 for the
 * files it copies in at a first start, 0644 for some it rewrites at each start), whatever the
 * process's umask. So the directory and everything in it are made private by mode, after PGlite
 * opened it as before: directories 0700, files 0600 (an owner's execute bit is kept).
 */

const OTHERS = 0o077;

/** What makePrivate changed: how many entries had group or other bits, now taken away. */
export type TPrivacyFix = { changed: number };

/**
 * Creates `dir` (0700) if missing, and takes every group and other permission bit away from it
 * and everything under it. Symbolic links are left alone (their targets are not ours to change).
 * Throws one clear line when a mode cannot be changed (the directory belongs to another user).
 */
export function makePrivate(dir: string): TPrivacyFix {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let changed = 0;
  const fix = (entry: string, stats: Stats) => {
    if ((stats.mode & OTHERS) === 0) return;
    try {
      chmodSync(entry, stats.mode & 0o700);
    } catch (error) {
      throw new Error(
        `${entry} is open to other users and cannot be made private (${(error as NodeJS.ErrnoException).code}): give DATA_DIR to the user the server runs as, or choose another DATA_DIR.`,
        { cause: error },
      );
    }
    changed += 1;
  };
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const entry = path.join(folder, name);
      let stats: Stats;
      try {
        stats = lstatSync(entry);
      } catch {
        continue; // Gone since it was listed (a temporary file).
      }
      if (stats.isSymbolicLink()) continue;
      fix(entry, stats);
      if (stats.isDirectory()) walk(entry);
    }
  };
  fix(dir, statSync(dir));
  walk(dir);
  return { changed };
}
