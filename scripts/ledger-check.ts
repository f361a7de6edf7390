// npm run ledger:check — proves the books of the configured database (DATA_DIR or DATABASE_URL):
// every ledger transaction sums to zero, every account's balance is the sum of its entries, and
// every executed payment is booked exactly once, and every payout as it ended. Exits 1 when any of it fails. With
// the embedded database, stop the server first (PGlite is one process's database).
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/database';
import { checkLedger, ledgerProblems } from '../src/server/services/payments/ledger';

const config = loadConfig();
const database = await openDatabase(
  config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: config.dataDir },
);
try {
  const report = await checkLedger(database.db);
  console.log(
    `Ledger: ${report.transactions} transactions, ${report.entries} entries, total ${report.total} kobo`,
  );
  const problems = ledgerProblems(report);
  for (const problem of problems) console.log(`- ${problem}`);
  console.log(problems.length === 0 ? 'The books balance.' : `${problems.length} problem(s).`);
  process.exitCode = problems.length === 0 ? 0 : 1;
} finally {
  await database.close();
}
