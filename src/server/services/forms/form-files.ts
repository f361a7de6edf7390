import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TDb } from '../../db/database';
import { storedSecret } from '../../crypto/server-secrets';

/*
 * Where a form's uploaded files live: under DATA_DIR/form-files, one folder a response, each file
 * named by a random key (never by what the payer's device called it). Merchants read them by
 * links signed with a server secret that work for a few minutes (docs/forms.md).
 */

/** The folder below DATA_DIR that holds them. */
export const FILES_FOLDER = 'form-files';
const LINK_SECRET = 'form-file-links';

/** A stored file's key: its path below DATA_DIR, made of our own ids only. */
export function newStorageKey(responseId: string, fileId: string): string {
  return `${FILES_FOLDER}/${responseId}/${fileId}`;
}

function storagePath(dataDir: string, storageKey: string): string {
  const root = path.resolve(dataDir, FILES_FOLDER);
  const full = path.resolve(dataDir, storageKey);
  // Keys are ours, but a path that leaves the folder is refused whatever made it.
  if (!full.startsWith(`${root}${path.sep}`)) throw new Error('A form file key left its folder');
  return full;
}

/** Writes a file whole or not at all (a temporary name, then a rename). */
export async function writeStoredFile(
  dataDir: string,
  storageKey: string,
  bytes: Buffer,
): Promise<void> {
  const full = storagePath(dataDir, storageKey);
  await mkdir(path.dirname(full), { recursive: true });
  const temporary = `${full}.${randomBytes(6).toString('hex')}.part`;
  await writeFile(temporary, bytes, { flag: 'wx' });
  await rename(temporary, full);
}

export async function readStoredFile(dataDir: string, storageKey: string): Promise<Buffer> {
  return readFile(storagePath(dataDir, storageKey));
}

export async function removeStoredFile(dataDir: string, storageKey: string): Promise<void> {
  await rm(storagePath(dataDir, storageKey), { force: true });
}

/** Whether two secrets (a token, a signature) are equal, in time that does not tell how close. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export const sha256Hex = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function linkSignature(db: TDb, fileId: string, expires: number): Promise<string> {
  const secret = await storedSecret(db, LINK_SECRET);
  return createHmac('sha256', secret).update(`${fileId}.${expires}`).digest('base64url');
}

/** A link to a file that works until `expiresAt`. */
export async function signedFileLink(
  db: TDb,
  publicUrl: string,
  fileId: string,
  expiresAt: Date,
): Promise<string> {
  const expires = expiresAt.getTime();
  const signature = await linkSignature(db, fileId, expires);
  const url = new URL(`/api/v1/form-files/${encodeURIComponent(fileId)}`, publicUrl);
  url.searchParams.set('expires', String(expires));
  url.searchParams.set('signature', signature);
  return url.toString();
}

/** Whether a link's signature is ours and it has not expired. */
export async function isFileLinkValid(
  db: TDb,
  link: { fileId: string; expires: number; signature: string },
  now: Date,
): Promise<boolean> {
  if (link.expires <= now.getTime()) return false;
  const expected = await linkSignature(db, link.fileId, link.expires);
  return sameSecret(link.signature, expected);
}
