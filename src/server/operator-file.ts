import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/*
 * How `npm run client:*` reaches a running server (docs/merchant-clients.md). An embedded
 * database belongs to the one process that opened it, so while the server runs on PGlite it
 * writes DATA_DIR/operator.json (its pid, a loopback URL and a bearer token, readable by its
 * user only) and the commands ask it; the file goes when the server stops. On PostgreSQL every
 * process shares the database and the commands use it directly.
 */

/** The file's name below DATA_DIR. */
export const OPERATOR_FILE = 'operator.json';

const ZOperatorFile = z.object({ pid: z.int(), url: z.url(), token: z.string().min(32) });
export type TOperatorFile = z.infer<typeof ZOperatorFile>;

export const newOperatorToken = () => randomBytes(32).toString('base64url');

/** Where the running server can be asked, from the address it listens on. */
export function operatorUrl(address: { address: string; family: string; port: number }): string {
  const any = address.address === '0.0.0.0' || address.address === '::';
  const host = any ? '127.0.0.1' : address.address;
  return `http://${address.family === 'IPv6' && !any ? `[${host}]` : host}:${address.port}`;
}

export function writeOperatorFile(dataDir: string, file: TOperatorFile): () => void {
  const where = path.join(dataDir, OPERATOR_FILE);
  writeFileSync(where, JSON.stringify(file), { mode: 0o600 });
  return () => rmSync(where, { force: true });
}

/** The running server's operator file; null when none runs (no file, or its process is gone). */
export function readOperatorFile(dataDir: string): TOperatorFile | null {
  let text: string;
  try {
    text = readFileSync(path.join(dataDir, OPERATOR_FILE), 'utf8');
  } catch {
    return null;
  }
  const parsed = ZOperatorFile.safeParse(JSON.parse(text));
  if (!parsed.success || !processRuns(parsed.data.pid)) return null;
  return parsed.data;
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
