import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import {
  DISCOVERY_TTL_MS,
  FIRST_PARTY_CLIENT_ID,
  type TDiscoveryRequest,
} from '../../../domain/schemas/auth';
import { randomId } from '../../crypto/secret-hash';
import type { TDb } from '../../db/database';
import { apiClients, authDiscoveries, consents } from '../../db/schema';
import { AppError } from '../../app-error';
import { readConsentForClient } from '../consents/consents';

export type TDiscoveryRow = typeof authDiscoveries.$inferSelect;

/**
 * Opens a discovery: the authentication session a sign-in must name (spec §5 'Discovery ID is
 * required for authentication'). For a consent, the consent must be readable by the clientId
 * (the same 404/403 as the consent read); without one, the clientId must be a registered client
 * or the product's own sign-in page.
 */
export async function openDiscovery(
  db: TDb,
  input: TDiscoveryRequest,
  now: Date = new Date(),
): Promise<{ discoveryId: string; expiresAt: Date }> {
  const clientId = input.clientId?.trim();
  if (!clientId) throw new AppError('MISSING_CLIENT_ID');
  if (input.consentId) {
    await readConsentForClient(db, input.consentId, clientId, now);
  } else if (clientId !== FIRST_PARTY_CLIENT_ID) {
    const [client] = await db
      .select({ clientId: apiClients.clientId })
      .from(apiClients)
      .where(eq(apiClients.clientId, clientId));
    if (!client) throw new AppError('CLIENT_NOT_RECOGNISED');
  }
  const discoveryId = randomId('dsc', 16);
  const expiresAt = new Date(now.getTime() + DISCOVERY_TTL_MS);
  await db.insert(authDiscoveries).values({
    id: discoveryId,
    clientId,
    consentId: input.consentId ?? null,
    authAppId: input.authAppId ?? null,
    createdAt: now,
    expiresAt,
  });
  await db
    .delete(authDiscoveries)
    .where(lt(authDiscoveries.expiresAt, new Date(now.getTime() - 86_400_000)));
  return { discoveryId, expiresAt };
}

/**
 * The discovery a login names, checked before any code or challenge is spent: it must be the
 * client's, unused and unexpired ('Temporary key expired' otherwise, so the page opens another).
 */
export async function readOpenDiscovery(
  db: TDb,
  input: { discoveryId: string; clientId: string },
  now: Date,
): Promise<TDiscoveryRow> {
  const [row] = await db
    .select()
    .from(authDiscoveries)
    .where(eq(authDiscoveries.id, input.discoveryId));
  if (!row) throw new AppError('TEMPORARY_KEY_EXPIRED');
  if (row.clientId !== input.clientId) {
    throw new AppError(row.consentId ? 'CONSENT_FORBIDDEN' : 'CLIENT_NOT_RECOGNISED');
  }
  if (row.usedAt || row.expiresAt.getTime() <= now.getTime()) {
    throw new AppError('TEMPORARY_KEY_EXPIRED');
  }
  return row;
}

/**
 * Marks the discovery used by this payer, atomically, and records it on its consent
 * (consents.attestDiscoveryId, spec §3): the grant later names the session it was signed in.
 */
export async function claimDiscovery(
  db: TDb,
  discovery: TDiscoveryRow,
  payerId: string,
  now: Date,
): Promise<void> {
  const [claimed] = await db
    .update(authDiscoveries)
    .set({ payerId, usedAt: now })
    .where(
      and(
        eq(authDiscoveries.id, discovery.id),
        isNull(authDiscoveries.usedAt),
        gt(authDiscoveries.expiresAt, now),
      ),
    )
    .returning({ id: authDiscoveries.id });
  if (!claimed) throw new AppError('TEMPORARY_KEY_EXPIRED');
  if (discovery.consentId) {
    await db
      .update(consents)
      .set({ attestDiscoveryId: discovery.id })
      .where(eq(consents.id, discovery.consentId));
  }
}
