import { desc, eq } from 'drizzle-orm';
import type { TDb } from '../../db/database';
import { smsOutbox } from '../../db/schema';
import { sandboxSmsLabel, smsSeal } from '../../crypto/sms-seal';

/*
 * The sandbox outbox, read side: what the sandbox SMS adapter (providers/sms.ts) "sent", opened
 * from its seal. A real provider leaves nothing here.
 */

export type TOutboxMessage = { id: number; to: string; body: string; sentAt: string };

/** The newest messages first, optionally to one number. */
export async function listOutbox(
  db: TDb,
  options: { phoneNumber?: string | undefined; limit: number },
): Promise<TOutboxMessage[]> {
  const rows = await db
    .select()
    .from(smsOutbox)
    .where(options.phoneNumber ? eq(smsOutbox.phoneNumber, options.phoneNumber) : undefined)
    .orderBy(desc(smsOutbox.id))
    .limit(options.limit);
  const seal = await smsSeal(db);
  return rows.map((r) => ({
    id: r.id,
    to: r.phoneNumber,
    body: seal.open(r.sealedBody, sandboxSmsLabel(r.phoneNumber)),
    sentAt: r.createdAt.toISOString(),
  }));
}
