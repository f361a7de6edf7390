// A migration's own statements, for the tests that run its data moves again on rows written as
// before it (src/server/db/called-off-state.test.ts, link-test-attempts.test.ts).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The statements of migration `file` (in src/server/db/migrations) that start with one of
 * `kinds` (INSERT, UPDATE: those that move data), its comments left out.
 */
export function migrationStatements(file: string, kinds: readonly string[]): string[] {
  return readFileSync(fileURLToPath(new URL(`../db/migrations/${file}`, import.meta.url)), 'utf8')
    .split('--> statement-breakpoint')
    .map((statement) =>
      statement
        .split('\n')
        .filter((line) => !line.startsWith('--'))
        .join('\n')
        .trim(),
    )
    .filter((statement) => kinds.some((kind) => statement.startsWith(kind)));
}
