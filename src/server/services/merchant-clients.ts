import { eq } from 'drizzle-orm';
import { DEFAULT_MERCHANT_COLOURS, DEFAULT_TRANSFER_BANK_NAME } from '../../domain/constants';
import type { TMerchantColours } from '../../domain/schemas/consent';
import { hashSecret, randomId, UNKNOWN_CLIENT_HASH, verifySecret } from '../crypto/secret-hash';
import type { TDb } from '../db/database';
import { apiClients, merchants } from '../db/schema';
import { AppError } from './app-error';
import { storedSecret } from './server-secrets';

const CLIENT_SECRET_KEY = 'client-secret-key';

/** The HMAC key of client secrets (a server secret, made on first use). */
async function clientSecretKey(db: TDb): Promise<Buffer> {
  return Buffer.from(await storedSecret(db, CLIENT_SECRET_KEY), 'base64url');
}

export type TNewMerchantClient = {
  name: string;
  image?: string | null;
  tag?: string | null;
  origins?: string[];
  colours?: Partial<TMerchantColours>;
  /** Bank of the wallet that collects immediate payments; null: none yet. */
  walletBankName?: string | null;
  /** Fixed ids for the demo merchant; random otherwise. */
  merchantId?: string;
  clientId?: string;
  secret?: string;
};

export type TMerchantClientCredentials = { merchantId: string; clientId: string; secret: string };

/** A registered embedding origin is scheme://host[:port], nothing more. */
export function normaliseOrigin(origin: string): string {
  const url = new URL(origin);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`Origin must be http or https: ${origin}`);
  }
  return url.origin;
}

/** Creates a merchant and its API client in one transaction; the secret is returned once. */
export async function createMerchantClient(
  db: TDb,
  input: TNewMerchantClient,
): Promise<TMerchantClientCredentials> {
  const merchantId = input.merchantId ?? randomId('mer');
  const clientId = input.clientId ?? randomId('cli', 9);
  const secret = input.secret ?? randomId('sk', 32);
  const colours = { ...DEFAULT_MERCHANT_COLOURS, ...input.colours };
  const secretHash = hashSecret(await clientSecretKey(db), secret);
  await db.transaction(async (tx) => {
    await tx.insert(merchants).values({
      id: merchantId,
      name: input.name,
      image: input.image ?? null,
      tag: input.tag ?? null,
      ...colours,
      walletBankName:
        input.walletBankName === undefined ? DEFAULT_TRANSFER_BANK_NAME : input.walletBankName,
    });
    await tx.insert(apiClients).values({
      clientId,
      merchantId,
      secretHash,
      allowedOrigins: (input.origins ?? []).map(normaliseOrigin),
    });
  });
  return { merchantId, clientId, secret };
}

export type TAuthenticatedClient = { clientId: string; merchantId: string };

/**
 * Checks HTTP Basic client credentials; any mismatch is the same 401, whatever was wrong. An
 * unknown client id costs the same work as a wrong secret, so the time of the answer does not
 * tell which client ids exist.
 */
export async function authenticateClient(
  db: TDb,
  clientId: string,
  secret: string,
): Promise<TAuthenticatedClient> {
  const key = await clientSecretKey(db);
  const [client] = await db
    .select({
      clientId: apiClients.clientId,
      merchantId: apiClients.merchantId,
      secretHash: apiClients.secretHash,
    })
    .from(apiClients)
    .where(eq(apiClients.clientId, clientId));
  const { ok, legacy } = await verifySecret(key, secret, client?.secretHash ?? UNKNOWN_CLIENT_HASH);
  if (!client || !ok) throw new AppError('INVALID_CLIENT_CREDENTIALS');
  if (legacy) {
    await db
      .update(apiClients)
      .set({ secretHash: hashSecret(key, secret) })
      .where(eq(apiClients.clientId, clientId));
  }
  return { clientId: client.clientId, merchantId: client.merchantId };
}

/** Origins a client registered for embedding its consent pages. */
export async function allowedOriginsOf(db: TDb, clientId: string): Promise<string[]> {
  const [client] = await db
    .select({ allowedOrigins: apiClients.allowedOrigins })
    .from(apiClients)
    .where(eq(apiClients.clientId, clientId));
  return client?.allowedOrigins ?? [];
}
