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

/**
 * The statements of migration `file` that move its data: those starting with one of `kinds` (its
 * UPDATEs unless told), its comment lines left out.
 */
export const backfillOf = (file: string, kinds: readonly string[] = ['UPDATE']): string[] =>
  readFileSync(fileURLToPath(new URL(`../db/migrations/${file}`, import.meta.url)), 'utf8')
    .split('--> statement-breakpoint')
    .map((statement) =>
      statement
        .split('\n')
        .filter((line) => !line.startsWith('--'))
        .join('\n')
        .trim(),
    )
    .filter((statement) => kinds.some((kind) => statement.startsWith(kind)));

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
