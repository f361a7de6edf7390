import { eq } from 'drizzle-orm';
import { DEFAULT_MERCHANT_COLOURS, DEFAULT_TRANSFER_BANK_NAME } from '../../domain/constants';
import type { TMerchantColours } from '../../domain/schemas/consent';
import { hashSecret, randomId, verifySecret } from '../crypto/secret-hash';
import type { TDb } from '../db/database';
import { apiClients, merchants } from '../db/schema';
import { AppError } from './app-error';

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
  const secretHash = await hashSecret(secret);
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

/** Checks HTTP Basic client credentials; any mismatch is the same 401, whatever was wrong. */
export async function authenticateClient(
  db: TDb,
  clientId: string,
  secret: string,
): Promise<TAuthenticatedClient> {
  const [client] = await db.select().from(apiClients).where(eq(apiClients.clientId, clientId));
  if (!client || !(await verifySecret(secret, client.secretHash))) {
    throw new AppError('INVALID_CLIENT_CREDENTIALS');
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
