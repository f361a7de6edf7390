import { eq } from 'drizzle-orm';
import { isWebOrigin } from '../../../domain/web-origin';
import type { TDb } from '../../db/database';
import { apiClients, consents } from '../../db/schema';

/** Every id we issue is a prefix and base64url (randomId) or a fixed word id such as cli_demo:
 * anything else names no row, and must not reach the database (a NUL byte fails the query). */
const ISSUED_ID = /^[\w-]{1,100}$/;

/**
 * Origins that may frame the consent page of `consentId` opened with `clientId`:
 * - a consent of that client: the origins that client registered;
 * - a consent of another client: none, whatever the URL says (spec §6: a clientId mismatch
 *   gives 403, and the page shows only that error);
 * - no such consent: that client's origins, so the merchant's frame shows 'Consent not found'
 *   with 'Report Error & Close' (spec §2, embed only). The page then holds no data, as when
 *   opened without a clientId, which any parent may frame.
 * One query: the client's origins and the consent's owner come from the same row.
 */
export async function embedOriginsOfConsent(
  db: TDb,
  consentId: string,
  clientId: string,
): Promise<string[]> {
  if (!ISSUED_ID.test(consentId) || !ISSUED_ID.test(clientId)) return [];
  const [row] = await db
    .select({ allowedOrigins: apiClients.allowedOrigins, owner: consents.clientId })
    .from(apiClients)
    .leftJoin(consents, eq(consents.id, consentId))
    .where(eq(apiClients.clientId, clientId));
  if (!row || (row.owner !== null && row.owner !== clientId)) return [];
  // They become the page's frame-ancestors: only origins that pass the rule, whatever is stored
  // (the start refuses a database that holds others).
  return row.allowedOrigins.filter(isWebOrigin);
}
