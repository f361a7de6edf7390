import { and, desc, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { findCardEncryptionError } from '../../../domain/card-encryption-validation';
import { parseExpiryDate } from '../../../domain/card-expiry';
import { cardNumberDigits } from '../../../domain/card-number';
import type {
  TEncryptedCard,
  TEncryptedField,
  TEncryptionPublicKeyResponse,
} from '../../../domain/schemas/card';
import type { TClock } from '../../clock';
import {
  decryptField,
  importCardPrivateKey,
  generateCardKeyPair,
  sealPrivateKey,
  unsealPrivateKey,
} from '../../crypto/card-encryption';
import { randomId } from '../../crypto/secret-hash';
import type { TDb } from '../../db/database';
import { cardEncryptionKeys } from '../../db/schema';
import { AppError } from '../../app-error';
import { storedSecret } from '../../crypto/server-secrets';

/*
 * The keys card fields are encrypted for (spec §7 Card encryption) and the opening of a card the
 * page sent. One key is current at a time: it is handed out, replaced after a week so that a
 * leaked private key opens a week of cards at most, and a replaced key still opens cards for a
 * day, so a payer who fetched it just before the change is not refused. Decrypted card details
 * exist only in the object decryptCard returns: never stored, logged or put in an error.
 */

const DAY_MS = 24 * 60 * 60 * 1_000;
/** A current key older than this is replaced on the next request for the key. */
export const CARD_KEY_ROTATE_AFTER_MS = 7 * DAY_MS;
/** How long a replaced key still decrypts. */
export const CARD_KEY_GRACE_MS = DAY_MS;

const SEAL_SECRET_NAME = 'card-key-seal';
const LOCK_NAME = 'card-encryption-keys';

type TKeyRow = typeof cardEncryptionKeys.$inferSelect;

export type TDecryptedCard = {
  /** Digits only. */
  number: string;
  /** 'MM/YY'. */
  expiry: string;
  cvv: string;
  pin: string | null;
};

const asPublicKey = (row: TKeyRow): TEncryptionPublicKeyResponse => ({
  publicKey: row.publicKeyPem,
  keyId: row.keyId,
});

async function newestCurrentKey(db: TDb): Promise<TKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(cardEncryptionKeys)
    .where(isNull(cardEncryptionKeys.retiresAt))
    .orderBy(desc(cardEncryptionKeys.createdAt))
    .limit(1);
  return row;
}

/**
 * How long this process keeps the key rows it read: every card payment reads the current key
 * (the page's GET) and its key by id (the decryption), which rarely change. Each use still
 * judges a kept row against the clock (fresh, or within its grace). A rotation here drops what
 * this process kept; one in another process is seen here within this time, while the key it
 * replaced still opens cards for CARD_KEY_GRACE_MS, far longer.
 */
export const CARD_KEY_KEEP_MS = 30_000;

type TKeptRows = {
  /** The newest current key, under CURRENT. */
  current: LRUCache<typeof CURRENT, TKeyRow>;
  byId: LRUCache<string, TKeyRow>;
};
const CURRENT = 'current';

/** The rows kept, by database. */
const keptRows = new WeakMap<TDb, TKeptRows>();

function keptRowsOf(db: TDb): TKeptRows {
  let kept = keptRows.get(db);
  if (!kept) {
    const options = { max: 16, ttl: CARD_KEY_KEEP_MS };
    kept = { current: new LRUCache(options), byId: new LRUCache(options) };
    keptRows.set(db, kept);
  }
  return kept;
}

/** The newest current key, as read at most CARD_KEY_KEEP_MS ago. */
async function keptCurrentKey(db: TDb): Promise<TKeyRow | undefined> {
  const { current } = keptRowsOf(db);
  const known = current.get(CURRENT);
  if (known) return known;
  const row = await newestCurrentKey(db);
  if (row) current.set(CURRENT, row);
  return row;
}

const isFresh = (row: TKeyRow, now: Date) =>
  now.getTime() - row.createdAt.getTime() <= CARD_KEY_ROTATE_AFTER_MS;

/**
 * The current key if `keep` accepts it, else a new key that replaces it. The check and the
 * replacement run under one advisory lock (a partial unique index would need a migration), so
 * racing callers, in this process or another, end with one current key.
 */
async function currentKeyUnder(
  db: TDb,
  clock: TClock,
  keep: (current: TKeyRow, now: Date) => boolean,
): Promise<TEncryptionPublicKeyResponse> {
  // Read before the transaction: on PGlite a query outside it would wait for it to end.
  const secret = await storedSecret(db, SEAL_SECRET_NAME);
  const answer = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${LOCK_NAME}))`);
    const now = clock.now();
    const current = await newestCurrentKey(tx);
    if (current && keep(current, now)) return asPublicKey(current);
    // Made under the lock: twenty first callers must not make twenty 3072-bit keys.
    const pair = await generateCardKeyPair();
    const keyId = randomId('cek');
    // A key past its grace opens nothing any more: its sealed private key need not be kept.
    await tx.delete(cardEncryptionKeys).where(lte(cardEncryptionKeys.retiresAt, now));
    await tx
      .update(cardEncryptionKeys)
      .set({ retiresAt: new Date(now.getTime() + CARD_KEY_GRACE_MS) })
      .where(isNull(cardEncryptionKeys.retiresAt));
    await tx.insert(cardEncryptionKeys).values({
      keyId,
      publicKeyPem: pair.publicKeyPem,
      privateKeySealed: sealPrivateKey(pair.privateKeyPem, secret),
      createdAt: now,
    });
    return { publicKey: pair.publicKeyPem, keyId };
  });
  // What this process kept may have changed: read again once the change has committed (cleared
  // before, a read in between would keep the replaced key).
  const kept = keptRowsOf(db);
  kept.current.clear();
  kept.byId.clear();
  return answer;
}

/**
 * The key the page encrypts card fields for (GET /api/encryption/public-key): made on first
 * use, replaced once older than CARD_KEY_ROTATE_AFTER_MS.
 */
export async function currentCardKey(
  db: TDb,
  clock: TClock,
): Promise<TEncryptionPublicKeyResponse> {
  const current = await keptCurrentKey(db);
  if (current && isFresh(current, clock.now())) return asPublicKey(current);
  return currentKeyUnder(db, clock, isFresh);
}

/** Replaces the current key now (a suspected leak, an operator's schedule). */
export function rotateCardKey(db: TDb, clock: TClock): Promise<TEncryptionPublicKeyResponse> {
  return currentKeyUnder(db, clock, () => false);
}

/** Unsealed private keys, imported, by database and key id: once per process is enough. */
const privateKeys = new WeakMap<TDb, Map<string, Promise<CryptoKey>>>();

function privateKeyOf(db: TDb, row: TKeyRow): Promise<CryptoKey> {
  const perDb = privateKeys.get(db) ?? new Map<string, Promise<CryptoKey>>();
  privateKeys.set(db, perDb);
  let key = perDb.get(row.keyId);
  if (key === undefined) {
    key = storedSecret(db, SEAL_SECRET_NAME).then((secret) =>
      importCardPrivateKey(unsealPrivateKey(row.privateKeySealed, secret)),
    );
    // A key that failed to open is tried again by the next card, not remembered failed.
    key.catch(() => perDb.delete(row.keyId));
    perDb.set(row.keyId, key);
  }
  return key;
}

/**
 * The private keys of these key ids, each current or within its grace. A key past its grace, or
 * deleted after it, or never made, is ENCRYPTION_KEY_RETIRED: the caller fetches the current key
 * and encrypts again. Key ids are public (every caller of the key is given one), so naming this
 * case apart tells nobody anything about the envelope.
 */
async function usablePrivateKeys(
  db: TDb,
  keyIds: string[],
  now: Date,
): Promise<Map<string, CryptoKey>> {
  const kept = keptRowsOf(db).byId;
  const known: TKeyRow[] = [];
  const missing: string[] = [];
  for (const keyId of keyIds) {
    const row = kept.get(keyId);
    if (row) known.push(row);
    else missing.push(keyId);
  }
  const read =
    missing.length === 0
      ? []
      : await db
          .select()
          .from(cardEncryptionKeys)
          .where(
            and(
              inArray(cardEncryptionKeys.keyId, missing),
              or(isNull(cardEncryptionKeys.retiresAt), gt(cardEncryptionKeys.retiresAt, now)),
            ),
          );
  for (const row of read) kept.set(row.keyId, row);
  const rows = [...known, ...read].filter(
    (row) => row.retiresAt === null || row.retiresAt.getTime() > now.getTime(),
  );
  if (rows.length !== keyIds.length) throw new AppError('ENCRYPTION_KEY_RETIRED');
  return new Map(
    await Promise.all(rows.map(async (row) => [row.keyId, await privateKeyOf(db, row)] as const)),
  );
}

/**
 * The card the page encrypted (spec §3 Encrypted card), in memory only. An envelope for a key
 * that no longer opens cards is ENCRYPTION_KEY_RETIRED; every way a usable key's envelope fails
 * to open (a changed byte, a wrong key) answers CARD_DETAILS_UNREADABLE, the same code, so a
 * caller cannot tell the RSA step from the AES one. The spec §5 rules are checked again on
 * what was decrypted: a client that skipped the page's check gains nothing.
 */
export async function decryptCard(
  db: TDb,
  clock: TClock,
  card: TEncryptedCard,
  pin: 'required' | 'optional',
): Promise<TDecryptedCard> {
  const now = clock.now();
  const fields = [
    card.encryptedCardNumber,
    card.encryptedExpiryDate,
    card.encryptedCvv,
    card.encryptedPin,
  ].filter((field) => field !== undefined);
  const keys = await usablePrivateKeys(db, [...new Set(fields.map((f) => f.keyId))], now);
  const open = async (field: TEncryptedField): Promise<string> => {
    const key = keys.get(field.keyId);
    if (!key) throw new AppError('CARD_DETAILS_UNREADABLE');
    try {
      return await decryptField(field, key);
    } catch {
      throw new AppError('CARD_DETAILS_UNREADABLE');
    }
  };
  // The four at once, on the thread pool (decryptField).
  const [number, expiryDate, cvv, pinText] = await Promise.all([
    open(card.encryptedCardNumber),
    open(card.encryptedExpiryDate),
    open(card.encryptedCvv),
    card.encryptedPin ? open(card.encryptedPin) : null,
  ]);

  // A required PIN that is absent breaks the PIN length rule, in its place in the §5 order.
  const checkedPin = pinText ?? (pin === 'required' ? '' : undefined);
  const code = findCardEncryptionError(
    { cardNumber: number, expiryDate, cvv, pin: checkedPin },
    now,
  );
  if (code) throw new AppError(code);

  // The rules passed, so both parts are digits; the network gets them as 'MM/YY'.
  const { month, year } = parseExpiryDate(expiryDate);
  const expiry = `${String(month).padStart(2, '0')}/${String(year).slice(-2)}`;
  return { number: cardNumberDigits(number), expiry, cvv, pin: pinText };
}
