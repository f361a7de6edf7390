import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Every file and folder under `dir` (itself included) that another user may use, with its mode. */
export function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const visit = (entry: string) => {
    const stats = lstatSync(entry);
    if (stats.isSymbolicLink()) return;
    if (stats.mode & 0o077) found.push(`${entry} ${(stats.mode & 0o777).toString(8)}`);
    if (stats.isDirectory()) for (const name of readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(dir);
  return found;
}
