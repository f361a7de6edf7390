import { desc, eq } from 'drizzle-orm';
import type { TConfig } from '../config';
import type { TDb } from '../db/database';
import { smsOutbox } from '../db/schema';

/** The port through which one-time codes leave the server. */
export type TSmsSender = {
  send(phoneNumber: string, body: string): Promise<void>;
};

/**
 * The sandbox provider: nothing is delivered; every message lands in the outbox that
 * /sandbox/messages lists, so a person or a test can read the code.
 */
export function sandboxSmsSender(db: TDb): TSmsSender {
  return {
    async send(phoneNumber, body) {
      await db.insert(smsOutbox).values({ phoneNumber, body });
    },
  };
}

export function smsSenderFor(db: TDb, config: TConfig): TSmsSender {
  switch (config.smsProvider) {
    case 'sandbox':
      return sandboxSmsSender(db);
  }
}

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
  return rows.map((r) => ({
    id: r.id,
    to: r.phoneNumber,
    body: r.body,
    sentAt: r.createdAt.toISOString(),
  }));
}
