// npm run refund:given-back -- <attemptId> <provider refund reference> — records a refund an
// operator made at the payment provider for money left to them (an attempt's refund 'by_hand':
// what a pushed terminal took on a payment paid otherwise, which no call of ours can give back;
// docs/providers/paystack-terminal.md). Run against the configured database (DATA_DIR or
// DATABASE_URL); with the embedded database, stop the server first (PGlite is one process's).
// Exits 1, changing nothing, when the attempt owes nothing by hand.
import { systemClock } from '../src/server/clock';
import { loadConfig } from '../src/server/config';
import { openConfiguredDatabase } from '../src/server/db/database';
import { recordRefundGivenBack } from '../src/server/services/payments/attempts/settlements';

const [attemptId, given] = process.argv.slice(2);
const refundReference = given?.trim();
if (!attemptId || !refundReference) {
  console.error('Usage: npm run refund:given-back -- <attemptId> <provider refund reference>');
  process.exit(2);
}
const config = loadConfig();
const database = await openConfiguredDatabase(config);
try {
  const recorded = await recordRefundGivenBack(
    { db: database.db, clock: systemClock },
    attemptId,
    refundReference,
  );
  console.log(
    recorded
      ? `Attempt ${attemptId}: given back (${refundReference}), owes nothing now.`
      : `Attempt ${attemptId} owes nothing by hand: unknown, given back already, or the reconciler's to give back.`,
  );
  process.exitCode = recorded ? 0 : 1;
} finally {
  await database.close();
}
