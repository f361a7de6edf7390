import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TClock } from '../clock';
import type { TDatabase } from '../db/database';
import { accountLinks, payerAccounts } from '../db/schema';
import { newLinkId } from '../services/linking/link-lifecycle';

/*
 * Links as a migration finds them, made before a column was kept, and the migration's statements
 * that fill it, run again on them by the test of that migration.
 */

/** The statements of migration `file` that fill its column (its UPDATEs), as the file has them. */
export const backfillOf = (file: string): string[] =>
  readFileSync(fileURLToPath(new URL(`../db/migrations/${file}`, import.meta.url)), 'utf8')
    .split('--> statement-breakpoint')
    .filter((statement) => statement.trim().startsWith('UPDATE'));

/** A payer's account and its link as `link` has it (else an active link by test transfer). */
export async function oldLink(
  { database, clock }: { database: TDatabase; clock: TClock },
  payerId: string,
  link: Partial<typeof accountLinks.$inferInsert>,
): Promise<{ id: string; accountId: string }> {
  const now = clock.now();
  const accountId = `pa_${newLinkId()}`;
  await database.db.insert(payerAccounts).values({
    id: accountId,
    payerId,
    institutionCode: '058',
    accountNumber: String(Math.floor(Math.random() * 1e10)).padStart(10, '0'),
    accountName: 'CHIAMAKA EZE',
    bankName: 'Guaranty Trust Bank',
    createdAt: now,
  });
  const id = newLinkId();
  await database.db.insert(accountLinks).values({
    id,
    payerId,
    accountId,
    route: 'test_transfer',
    state: 'active',
    expiresAt: now,
    activatedAt: now,
    createdAt: now,
    updatedAt: now,
    ...link,
  });
  return { id, accountId };
}
