import { and, eq, gt, sql } from 'drizzle-orm';
import { DEFAULT_MERCHANT_COLOURS, DEFAULT_TRANSFER_BANK_NAME } from '../../../domain/constants';
import type { TMerchantColours } from '../../../domain/schemas/consent';
import { isWebOrigin, webOriginProblem } from '../../../domain/web-origin';
import { hashSecret, randomId, UNKNOWN_CLIENT_HASH, verifySecret } from '../../crypto/secret-hash';
import type { TDb } from '../../db/database';
import { preparedQuery } from '../../db/prepared-queries';
import { apiClients, merchants } from '../../db/schema';
import { AppError } from '../../app-error';
import { storedSecret } from '../../crypto/server-secrets';

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

/** Origins a client may register: each is listed in its consent pages' frame-ancestors. */
export const MAX_CLIENT_ORIGINS = 50;

/**
 * Refuses, as the route's schema does, a list in which one is not an origin as a browser writes
 * it: every caller (the operator command on the database, the demo seed) is held to the rule
 * the frame-ancestors header needs.
 */
function requireWebOrigins(field: string, origins: string[]): string[] {
  origins.forEach((origin, index) => {
    const problem = webOriginProblem(origin);
    if (problem) throw new AppError('VALIDATION_FAILED', `${field}.${index}: ${problem}`);
  });
  return origins;
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
      allowedOrigins: requireWebOrigins('origins', input.origins ?? []),
    });
  });
  return { merchantId, clientId, secret };
}

export type TAuthenticatedClient = {
  clientId: string;
  merchantId: string;
  /** Which secret the request presented: the current one, or the one a rotation replaced
   * while its grace period lasts. */
  secret: 'current' | 'previous';
  /**
   * What a consent's creation needs of the client and its merchant, read with the credentials
   * (one statement, bench/README.md "Statements a payment"): the bank of the wallet that collects
   * immediate payments, and the origins a return URL may be on.
   */
  walletBankName: string | null;
  allowedOrigins: string[];
};

/** A client's stored credentials and its merchant, read on every merchant request: prepared once. */
const prepareCredentials = (db: TDb) =>
  db
    .select({
      clientId: apiClients.clientId,
      merchantId: apiClients.merchantId,
      secretHash: apiClients.secretHash,
      previousSecretHash: apiClients.previousSecretHash,
      previousSecretExpiresAt: apiClients.previousSecretExpiresAt,
      allowedOrigins: apiClients.allowedOrigins,
      walletBankName: merchants.walletBankName,
    })
    .from(apiClients)
    .innerJoin(merchants, eq(merchants.id, apiClients.merchantId))
    .where(eq(apiClients.clientId, sql.placeholder('clientId')))
    .prepare('client_credentials');

type TStoredCredentials = Awaited<
  ReturnType<ReturnType<typeof prepareCredentials>['execute']>
>[number];

/** The client as the request carries it: no hash of a secret goes with it. */
function authenticatedAs(
  client: TStoredCredentials,
  secret: TAuthenticatedClient['secret'],
): TAuthenticatedClient {
  const { clientId, merchantId, walletBankName, allowedOrigins } = client;
  return { clientId, merchantId, secret, walletBankName, allowedOrigins };
}

/**
 * Checks HTTP Basic client credentials; any mismatch is the same 401, whatever was wrong. An
 * unknown client id costs the same work as a wrong secret, so the time of the answer does not
 * tell which client ids exist. After a rotation the replaced secret is accepted until its grace
 * period ends.
 */
export async function authenticateClient(
  db: TDb,
  clientId: string,
  secret: string,
  now: Date,
): Promise<TAuthenticatedClient> {
  const key = await clientSecretKey(db);
  const [client] = await preparedQuery(db, 'client_credentials', prepareCredentials).execute({
    clientId,
  });
  const current = await verifySecret(key, secret, client?.secretHash ?? UNKNOWN_CLIENT_HASH);
  if (client && current.ok) {
    if (current.legacy) {
      await db
        .update(apiClients)
        .set({ secretHash: hashSecret(key, secret) })
        .where(eq(apiClients.clientId, clientId));
    }
    return authenticatedAs(client, 'current');
  }
  const previousValid =
    client?.previousSecretHash != null &&
    client.previousSecretExpiresAt !== null &&
    client.previousSecretExpiresAt > now;
  if (client && previousValid && client.previousSecretHash) {
    const previous = await verifySecret(key, secret, client.previousSecretHash);
    if (previous.ok) {
      return authenticatedAs(client, 'previous');
    }
  }
  throw new AppError('INVALID_CLIENT_CREDENTIALS');
}

export type TRotatedSecret = {
  clientId: string;
  secret: string;
  /** Until when the replaced secret is still accepted (ISO time); null: it no longer is. */
  previousSecretValidUntil: string | null;
};

/**
 * Gives a client a new secret. The secret that authenticated the call (`presented`) stays valid
 * for `graceHours`, so the merchant's servers can move to the new one without a failed call:
 * - presented 'current': it becomes the replaced secret, valid until now + grace;
 * - presented 'previous' (a rotation whose answer was lost, retried with the old secret): the
 *   lost new secret is replaced, and the old one keeps the grace it had, never more;
 * - 'operator' (the operator's command, no secret presented): the current secret becomes the
 *   replaced one.
 * Each case is one conditional UPDATE on the secret presented, so two rotations at once cannot
 * both think they replaced it: the later one answers CLIENT_SECRET_CHANGED.
 */
export async function rotateClientSecret(
  db: TDb,
  input: {
    clientId: string;
    presented: 'current' | 'previous' | 'operator';
    /** The secret the call authenticated with; not needed for the operator. */
    presentedSecret?: string;
    graceHours: number;
    now: Date;
  },
): Promise<TRotatedSecret> {
  const key = await clientSecretKey(db);
  const secret = randomId('sk', 32);
  const secretHash = hashSecret(key, secret);
  const until =
    input.graceHours > 0 ? new Date(input.now.getTime() + input.graceHours * 3_600_000) : null;
  const presentedHash = input.presentedSecret ? hashSecret(key, input.presentedSecret) : null;
  const client = eq(apiClients.clientId, input.clientId);
  const replacing = {
    secretHash,
    previousSecretHash: until ? sql`${apiClients.secretHash}` : null,
    previousSecretExpiresAt: until,
  };
  const returning = { previousSecretValidUntil: apiClients.previousSecretExpiresAt };
  let rows: { previousSecretValidUntil: Date | null }[];
  if (input.presented === 'operator') {
    rows = await db.update(apiClients).set(replacing).where(client).returning(returning);
  } else if (input.presented === 'current' && presentedHash) {
    rows = await db
      .update(apiClients)
      .set(replacing)
      .where(and(client, eq(apiClients.secretHash, presentedHash)))
      .returning(returning);
  } else if (presentedHash) {
    rows = await db
      .update(apiClients)
      .set({ secretHash })
      .where(
        and(
          client,
          eq(apiClients.previousSecretHash, presentedHash),
          gt(apiClients.previousSecretExpiresAt, input.now),
        ),
      )
      .returning(returning);
  } else {
    throw new Error('A rotation by the client names the secret it presented');
  }
  const [row] = rows;
  if (!row) {
    throw new AppError(
      input.presented === 'operator' ? 'CLIENT_NOT_FOUND' : 'CLIENT_SECRET_CHANGED',
    );
  }
  return {
    clientId: input.clientId,
    secret,
    previousSecretValidUntil: row.previousSecretValidUntil?.toISOString() ?? null,
  };
}

/**
 * Changes the origins allowed to embed a client's pages in one UPDATE (two changes at once both
 * land): `add` then `remove`. Each added origin is one as a browser writes it (web-origin.ts); a
 * removed one is matched as written, and one that breaks the rule must be in the list (one
 * stored before the rule), or the change is refused: nothing is removed by a near miss.
 * Returns the list.
 */
export async function changeClientOrigins(
  db: TDb,
  clientId: string,
  change: { add?: string[]; remove?: string[] },
): Promise<string[]> {
  const add = requireWebOrigins('add', change.add ?? []);
  const remove = change.remove ?? [];
  const strays = remove.filter((origin) => !isWebOrigin(origin));
  const changed = sql`(
    SELECT coalesce(jsonb_agg(o ORDER BY first), '[]'::jsonb) FROM (
      SELECT o, min(n) AS first
      FROM jsonb_array_elements_text(${apiClients.allowedOrigins} || ${JSON.stringify(add)}::jsonb)
        WITH ORDINALITY AS e(o, n)
      WHERE NOT jsonb_exists(${JSON.stringify(remove)}::jsonb, o)
      GROUP BY o
    ) AS kept
  )`;
  // The cap is checked on the list the UPDATE writes, in the same statement: changes at once
  // cannot together pass it. Every origin goes into each consent page's frame-ancestors header.
  const [row] = await db
    .update(apiClients)
    .set({ allowedOrigins: changed })
    .where(
      and(
        eq(apiClients.clientId, clientId),
        sql`jsonb_array_length(${changed}) <= ${MAX_CLIENT_ORIGINS}`,
        sql`${apiClients.allowedOrigins} @> ${JSON.stringify(strays)}::jsonb`,
      ),
    )
    .returning({ allowedOrigins: apiClients.allowedOrigins });
  if (row) return row.allowedOrigins;
  const { allowedOrigins } = await readClient(db, clientId, new Date()); // or CLIENT_NOT_FOUND
  const missing = remove.findIndex(
    (origin) => !isWebOrigin(origin) && !allowedOrigins.includes(origin),
  );
  if (missing >= 0) {
    throw new AppError(
      'VALIDATION_FAILED',
      `remove.${missing}: ${webOriginProblem(remove[missing] ?? '')}`,
    );
  }
  throw new AppError(
    'VALIDATION_FAILED',
    `add: a client has at most ${MAX_CLIENT_ORIGINS} origins`,
  );
}

/** What the merchant (or the operator) reads of a client: never a secret. */
export async function readClient(db: TDb, clientId: string, now: Date) {
  const [row] = await db
    .select({
      clientId: apiClients.clientId,
      merchantId: apiClients.merchantId,
      allowedOrigins: apiClients.allowedOrigins,
      previousSecretExpiresAt: apiClients.previousSecretExpiresAt,
    })
    .from(apiClients)
    .where(eq(apiClients.clientId, clientId));
  if (!row) throw new AppError('CLIENT_NOT_FOUND');
  const graceEnds = row.previousSecretExpiresAt;
  return {
    clientId: row.clientId,
    merchantId: row.merchantId,
    allowedOrigins: row.allowedOrigins,
    previousSecretValidUntil: graceEnds && graceEnds > now ? graceEnds.toISOString() : null,
  };
}

/** Origins a client registered for embedding its consent pages. */
export async function allowedOriginsOf(db: TDb, clientId: string): Promise<string[]> {
  const [client] = await db
    .select({ allowedOrigins: apiClients.allowedOrigins })
    .from(apiClients)
    .where(eq(apiClients.clientId, clientId));
  // Only origins that pass the rule: the start refuses others, so none should be there.
  return (client?.allowedOrigins ?? []).filter(isWebOrigin);
}

/**
 * Stops a start whose database holds an embedding origin that breaks the rule (registered
 * before it): such a value must never reach a frame-ancestors header. One line names the first
 * client and origin, and how to remove it.
 */
export async function refuseStoredNonOrigins(db: TDb): Promise<void> {
  const rows = await db
    .select({ clientId: apiClients.clientId, allowedOrigins: apiClients.allowedOrigins })
    .from(apiClients)
    .orderBy(apiClients.clientId);
  const bad = rows.flatMap(({ clientId, allowedOrigins }) =>
    allowedOrigins
      .map((origin) => ({ clientId, origin, problem: webOriginProblem(origin) }))
      .filter((entry) => entry.problem !== null),
  );
  const [first] = bad;
  if (!first) return;
  const more = bad.length > 1 ? ` (and ${bad.length - 1} more)` : '';
  throw new Error(
    `Client ${first.clientId}: the embedding origin ${JSON.stringify(first.origin)} ${first.problem}${more}. Remove it (npm run client:origins -- --client ${first.clientId} --remove ${JSON.stringify(first.origin)}) and register each origin as a browser writes it.`,
  );
}
