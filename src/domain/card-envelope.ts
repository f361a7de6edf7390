import type { TCardToEncrypt } from './card-encryption-validation';
import { cardNumberDigits } from './card-number';
import {
  CARD_ENCRYPTION_AES_KEY_BITS,
  CARD_ENCRYPTION_ALGORITHM,
  CARD_ENCRYPTION_IV_BYTES,
  CARD_ENCRYPTION_RSA_HASH,
  CARD_ENCRYPTION_VERSION,
} from './constants';
import type { TEncryptedCard, TEncryptedField } from './schemas/card';

/*
 * Card fields encrypted for the server (spec §7 Card encryption, §3 Encrypted card), the same
 * code in the browser and in server tests: WebCrypto's SubtleCrypto is handed in, and only
 * globals both have are used (crypto.getRandomValues, TextEncoder, btoa, atob), never Buffer.
 */

/** The server's key as GET /api/encryption/public-key answers it. */
export type TCardEncryptionKey = { publicKey: string; keyId: string };

/** Standard base64 (the envelope's schema alphabet), without Buffer. */
function toBase64(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = '';
  for (const byte of view) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The DER bytes of an SPKI PEM ('-----BEGIN PUBLIC KEY-----' … ). */
function spkiDer(publicKeyPem: string): Uint8Array<ArrayBuffer> {
  const body = publicKeyPem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s/g, '');
  return Uint8Array.from(atob(body), (char) => char.charCodeAt(0));
}

function importPublicKey(subtle: SubtleCrypto, publicKeyPem: string): Promise<CryptoKey> {
  return subtle.importKey(
    'spki',
    spkiDer(publicKeyPem),
    { name: 'RSA-OAEP', hash: CARD_ENCRYPTION_RSA_HASH },
    false,
    ['wrapKey'],
  );
}

/**
 * One field in its own envelope: a fresh AES-256-GCM key and 12-byte IV for this field alone
 * (a shared key would let one leaked field key open the others), the AES key wrapped by
 * RSA-OAEP. encryptedData is WebCrypto's output: ciphertext followed by the 16-byte tag.
 */
async function sealField(
  subtle: SubtleCrypto,
  publicKey: CryptoKey,
  keyId: string,
  text: string,
): Promise<TEncryptedField> {
  const aesKey = await subtle.generateKey(
    { name: 'AES-GCM', length: CARD_ENCRYPTION_AES_KEY_BITS },
    true,
    ['encrypt'],
  );
  const iv = crypto.getRandomValues(new Uint8Array(CARD_ENCRYPTION_IV_BYTES));
  const encryptedData = await subtle.encrypt(
    { name: 'AES-GCM', iv },
    aesKey,
    new TextEncoder().encode(text),
  );
  const encryptedAesKey = await subtle.wrapKey('raw', aesKey, publicKey, { name: 'RSA-OAEP' });
  return {
    keyId,
    encryptedAesKey: toBase64(encryptedAesKey),
    iv: toBase64(iv),
    encryptedData: toBase64(encryptedData),
    algorithm: CARD_ENCRYPTION_ALGORITHM,
    version: CARD_ENCRYPTION_VERSION,
  };
}

/** One card field encrypted under the server's public key (spec §7). */
export async function encryptCardField(
  subtle: SubtleCrypto,
  publicKeyPem: string,
  keyId: string,
  text: string,
): Promise<TEncryptedField> {
  return sealField(subtle, await importPublicKey(subtle, publicKeyPem), keyId, text);
}

/**
 * The card's fields, each in its own envelope (spec §3 Encrypted card): the number without its
 * spaces (spec §5), the expiry as 'MM/YY', the CVV, and the PIN only when one was typed. The
 * caller validates first (validateCardForEncryption); the server checks again after decrypting.
 */
export async function encryptCard(
  subtle: SubtleCrypto,
  key: TCardEncryptionKey,
  card: TCardToEncrypt,
): Promise<TEncryptedCard> {
  const publicKey = await importPublicKey(subtle, key.publicKey);
  const seal = (text: string) => sealField(subtle, publicKey, key.keyId, text);
  const [encryptedCardNumber, encryptedExpiryDate, encryptedCvv, encryptedPin] = await Promise.all([
    seal(cardNumberDigits(card.cardNumber)),
    seal(card.expiryDate.trim()),
    seal(card.cvv),
    card.pin === undefined ? undefined : seal(card.pin),
  ]);
  return {
    encryptedCardNumber,
    encryptedExpiryDate,
    encryptedCvv,
    ...(encryptedPin === undefined ? {} : { encryptedPin }),
  };
}
