// npm run ledger:check — proves the books of the configured database (DATA_DIR or DATABASE_URL):
// every ledger transaction sums to zero, every account's balance is the sum of its entries, and
// every executed immediate payment is booked exactly once. Exits 1 when any of it fails. With
// the embedded database, stop the server first (PGlite is one process's database).
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/database';
import { checkLedger } from '../src/server/services/ledger';

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
  const problems = [
    ...report.unbalanced.map((id) => `transaction ${id} does not sum to zero`),
    ...report.balanceMismatches.map((id) => `account ${id}: balance is not the sum of its entries`),
    ...report.paymentsNotBookedOnce.map((id) => `payment ${id} is not booked exactly once`),
  ];
  for (const problem of problems) console.log(`- ${problem}`);
  console.log(problems.length === 0 ? 'The books balance.' : `${problems.length} problem(s).`);
  process.exitCode = problems.length === 0 ? 0 : 1;
} finally {
  await database.close();
}
