import { sealingKey, sealText, unsealText } from './sealing';
import type { TDb } from '../db/database';
import { storedSecret } from './server-secrets';

/*
 * An SMS carries what proves a payer or a member of staff (a code, an invitation link, a
 * receipt's or a cancel link's token), so wherever its text must be kept — queued until it is
 * sent (`sms_queue`), or "sent" into the sandbox outbox (`sms_outbox`) — it is kept sealed
 * (AES-256-GCM) under a key derived from a server secret, which SECRETS_KEY seals in turn
 * (docs/security.md "What is never stored or logged"). Each text is bound to its row's label,
 * so one row's text cannot be moved into another's.
 */

const SECRET_NAME = 'sms-seal';

/** Seals and opens SMS texts of one database; got before the transaction that queues one. */
export type TSmsSeal = {
  seal(text: string, label: string): string;
  /** Throws when the text was sealed under another key or label, or was changed. */
  open(sealed: string, label: string): string;
};

/** The label of a queued SMS: its row's id, the job's. */
export const queuedSmsLabel = (id: string): string => `sms-queue:${id}`;

/** The label of a message in the sandbox outbox: the number it was "sent" to. */
export const sandboxSmsLabel = (phoneNumber: string): string => `sms-outbox:${phoneNumber}`;

/**
 * The seal of `db`'s SMS texts. `db` is the database itself, never a transaction: the secret is
 * made on first use, and SECRETS_KEY's key is known by the database (server-secrets.ts).
 */
export async function smsSeal(db: TDb): Promise<TSmsSeal> {
  const key = sealingKey(await storedSecret(db, SECRET_NAME), 'oya-money-sms', 'sms-text-seal');
  return {
    seal: (text, label) => sealText(text, key, label),
    open: (sealed, label) => unsealText(sealed, key, label),
  };
}
