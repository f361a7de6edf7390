import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encryptCard, encryptCardField } from '../../../domain/card-envelope';
import type { TCardToEncrypt } from '../../../domain/card-encryption-validation';
import { ERROR_CATALOGUE, type TErrorCode } from '../../../domain/errors';
import type { TEncryptedCard } from '../../../domain/schemas/card';
import { generateCardKeyPair } from '../../crypto/card-encryption';
import type { TDatabase } from '../../db/database';
import { cardEncryptionKeys } from '../../db/schema';
import { openTestDatabase, testClock } from '../../testing/test-app';
import {
  CARD_KEY_GRACE_MS,
  CARD_KEY_ROTATE_AFTER_MS,
  currentCardKey,
  decryptCard,
  rotateCardKey,
} from './card-encryption-keys';

const subtle = globalThis.crypto.subtle;
const HOUR_MS = 60 * 60 * 1_000;
// Mid-June in Lagos: '06/25' has not expired, '05/25' has.
const START = '2025-06-15T12:00:00Z';
const CARD: TCardToEncrypt = {
  cardNumber: '4111 1111 1111 1111',
  expiryDate: '12/30',
  cvv: '123',
  pin: '1234',
};

async function expectCode(attempt: Promise<unknown>, code: TErrorCode) {
  await expect(attempt).rejects.toMatchObject({ code, message: ERROR_CATALOGUE[code].message });
}

/** The envelope's encryptedData with its last byte (part of the GCM tag) flipped. */
function withTamperedCvv(card: TEncryptedCard): TEncryptedCard {
  const bytes = Buffer.from(card.encryptedCvv.encryptedData, 'base64');
  bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0x01;
  return {
    ...card,
    encryptedCvv: { ...card.encryptedCvv, encryptedData: bytes.toString('base64') },
  };
}

describe('decryptCard', () => {
  let database: TDatabase;
  const clock = testClock(START);
  const encrypt = async (card: TCardToEncrypt) =>
    encryptCard(subtle, await currentCardKey(database.db, clock), card);

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('opens what the page encrypts: digits only, MM/YY, CVV, PIN', async () => {
    const card = await encrypt(CARD);
    await expect(decryptCard(database.db, clock, card, 'required')).resolves.toEqual({
      number: '4111111111111111',
      expiry: '12/30',
      cvv: '123',
      pin: '1234',
    });
  });

  it('answers a null PIN when none was sent and none is required', async () => {
    const card = await encrypt({ ...CARD, pin: undefined, expiryDate: '6/25' });
    await expect(decryptCard(database.db, clock, card, 'optional')).resolves.toEqual({
      number: '4111111111111111',
      expiry: '06/25',
      cvv: '123',
      pin: null,
    });
  });

  it.each([
    ['15 digits', { cardNumber: '4111 1111 1111 111' }, 'CARD_NUMBER_LENGTH_INVALID'],
    ['17 digits', { cardNumber: '4111 1111 1111 1111 1' }, 'CARD_NUMBER_LENGTH_INVALID'],
    ['a letter in the number', { cardNumber: '4111 1111 1111 111a' }, 'CARD_NUMBER_NOT_DIGITS'],
    ['month 13', { expiryDate: '13/30' }, 'CARD_MONTH_INVALID'],
    ['a past year', { expiryDate: '12/24' }, 'CARD_YEAR_INVALID'],
    ['a month past this year', { expiryDate: '05/25' }, 'CARD_EXPIRED'],
    ['a CVV of 2 digits', { cvv: '12' }, 'CVV_LENGTH_INVALID'],
    ['a CVV of 5 digits', { cvv: '12345' }, 'CVV_LENGTH_INVALID'],
    ['a letter in the CVV', { cvv: '12a' }, 'CVV_NOT_DIGITS'],
    ['a PIN of 3 digits', { pin: '123' }, 'PIN_LENGTH_INVALID'],
    ['a letter in the PIN', { pin: '12a4' }, 'PIN_NOT_DIGITS'],
    ['no PIN where one is required', { pin: undefined }, 'PIN_LENGTH_INVALID'],
  ] as const)('refuses %s with the spec §5 message', async (_, change, code) => {
    const card = await encrypt({ ...CARD, ...change });
    await expectCode(decryptCard(database.db, clock, card, 'required'), code);
  });

  it('checks the rules in the spec §5 order: the number before a missing PIN', async () => {
    const card = await encrypt({ ...CARD, cardNumber: '4111', pin: undefined });
    await expectCode(
      decryptCard(database.db, clock, card, 'required'),
      'CARD_NUMBER_LENGTH_INVALID',
    );
  });

  it('puts no card detail in the error it throws', async () => {
    const card = await encrypt({ ...CARD, cvv: '98' });
    const error: unknown = await decryptCard(database.db, clock, card, 'required').catch(
      (e: unknown) => e,
    );
    const text = `${String(error)} ${JSON.stringify(error)}`;
    expect(text).toContain('CVV must be 3 or 4 digits');
    for (const secret of ['4111111111111111', '98', '1234']) expect(text).not.toContain(secret);
  });

  it('refuses an envelope with a changed byte as unreadable', async () => {
    const card = withTamperedCvv(await encrypt(CARD));
    await expectCode(decryptCard(database.db, clock, card, 'required'), 'CARD_DETAILS_UNREADABLE');
  });

  it('refuses a key id it does not hold as retired, and an envelope made for another key as unreadable', async () => {
    const card = await encrypt(CARD);
    const unknownKey = { ...card, encryptedCvv: { ...card.encryptedCvv, keyId: 'cek_unknown' } };
    await expectCode(
      decryptCard(database.db, clock, unknownKey, 'required'),
      'ENCRYPTION_KEY_RETIRED',
    );
    const foreign = await generateCardKeyPair();
    const { keyId } = await currentCardKey(database.db, clock);
    const forged = {
      ...card,
      encryptedPin: await encryptCardField(subtle, foreign.publicKeyPem, keyId, '1234'),
    };
    await expectCode(
      decryptCard(database.db, clock, forged, 'required'),
      'CARD_DETAILS_UNREADABLE',
    );
  });
});

describe('currentCardKey and rotateCardKey', () => {
  let database: TDatabase;
  let clock: ReturnType<typeof testClock>;
  const keyRows = () =>
    database.db.select().from(cardEncryptionKeys).orderBy(cardEncryptionKeys.createdAt);

  beforeEach(async () => {
    database = await openTestDatabase();
    clock = testClock(START);
  });
  afterEach(async () => {
    await database.close();
  });

  it('makes one key for twenty concurrent first callers', { tags: ['postgres'] }, async () => {
    expect(await keyRows()).toEqual([]);
    const keys = await Promise.all(
      Array.from({ length: 20 }, () => currentCardKey(database.db, clock)),
    );
    expect(new Set(keys.map((k) => k.keyId)).size).toBe(1);
    expect(await keyRows()).toHaveLength(1);
  });

  it('serves the stored public key and stores the private key only sealed', async () => {
    const key = await currentCardKey(database.db, clock);
    const [row] = await keyRows();
    expect(row).toMatchObject({ keyId: key.keyId, publicKeyPem: key.publicKey, retiresAt: null });
    expect(row?.createdAt).toEqual(clock.now());
    expect(key.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(JSON.stringify(row)).not.toContain('PRIVATE KEY');
    expect(await currentCardKey(database.db, clock)).toEqual(key);
  });

  it('replaces a key older than 7 days and keeps the old one for 24 hours', async () => {
    const first = await currentCardKey(database.db, clock);
    clock.advance(CARD_KEY_ROTATE_AFTER_MS);
    expect((await currentCardKey(database.db, clock)).keyId).toBe(first.keyId);
    clock.advance(1);
    const second = await currentCardKey(database.db, clock);
    expect(second.keyId).not.toBe(first.keyId);
    const retiresAt = new Date(clock.now().getTime() + CARD_KEY_GRACE_MS);
    expect(await keyRows()).toMatchObject([
      { keyId: first.keyId, retiresAt },
      { keyId: second.keyId, retiresAt: null },
    ]);
  });

  it('still decrypts with a key rotated 23 hours ago, and not once its grace has passed', async () => {
    const old = await currentCardKey(database.db, clock);
    const card = await encryptCard(subtle, old, CARD);
    const fresh = await rotateCardKey(database.db, clock);
    expect(fresh.keyId).not.toBe(old.keyId);
    expect(await currentCardKey(database.db, clock)).toEqual(fresh);

    clock.advance(23 * HOUR_MS);
    await expect(decryptCard(database.db, clock, card, 'required')).resolves.toMatchObject({
      cvv: '123',
    });
    clock.advance(HOUR_MS);
    await expectCode(decryptCard(database.db, clock, card, 'required'), 'ENCRYPTION_KEY_RETIRED');
    const current = await encryptCard(subtle, fresh, CARD);
    await expect(decryptCard(database.db, clock, current, 'required')).resolves.toMatchObject({
      pin: '1234',
    });
  });

  it('drops keys whose grace has passed when it makes the next one; their cards answer retired', async () => {
    const first = await currentCardKey(database.db, clock);
    const card = await encryptCard(subtle, first, CARD);
    const second = await rotateCardKey(database.db, clock);
    clock.advance(CARD_KEY_ROTATE_AFTER_MS + 1);
    const third = await currentCardKey(database.db, clock);
    const rows = await keyRows();
    expect(rows.map((r) => r.keyId)).toEqual([second.keyId, third.keyId]);
    expect(
      await database.db
        .select()
        .from(cardEncryptionKeys)
        .where(eq(cardEncryptionKeys.keyId, first.keyId)),
    ).toEqual([]);
    await expectCode(decryptCard(database.db, clock, card, 'required'), 'ENCRYPTION_KEY_RETIRED');
  });
});
