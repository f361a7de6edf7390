// npm run ledger:check — proves the books of the configured database (DATA_DIR or DATABASE_URL):
// every ledger transaction sums to zero, every account's balance is the sum of its entries,
// every executed payment is booked exactly once and every payout as it ended, and the payment
// record of every provider that holds money agrees with the books reference by reference, each
// row matched only with the record of the provider it names (the sandbox's, in the same database;
// Paystack's, read from its transaction, transfer and refund lists; Monnify's): a problem names
// the provider whose record differs. Exits 1 when any of it fails, naming what differs. With the embedded
// database, stop the server first (PGlite is one process's database). `-- --from <date> [--to
// <date>]` compares with the provider only what was booked in that period (docs/payments.md).
import { systemClock } from '../src/server/clock';
import { loadConfig } from '../src/server/config';
import { paymentProviderFor } from '../src/server/context';
import { openConfiguredDatabase } from '../src/server/db/database';
import { checkLedger, ledgerProblems } from '../src/server/services/payments/ledger';

/** The period named by `--from` and `--to` (ISO dates; `--to` defaults to now), if any. */
function periodOf(args: string[]): { from: Date; to: Date } | undefined {
  const valueOf = (name: string) => {
    const at = args.indexOf(name);
    return at < 0 ? undefined : args[at + 1];
  };
  const from = valueOf('--from');
  if (from === undefined) return undefined;
  const to = valueOf('--to');
  const period = { from: new Date(from), to: to === undefined ? new Date() : new Date(to) };
  if (Number.isNaN(period.from.getTime()) || Number.isNaN(period.to.getTime())) {
    throw new Error('--from and --to take dates, e.g. --from 2031-06-01 --to 2031-07-01');
  }
  return period;
}

const period = periodOf(process.argv.slice(2));
const config = loadConfig();
const database = await openConfiguredDatabase(config);
try {
  const { payments, registry } = paymentProviderFor(config, database.db, systemClock);
  const report = await checkLedger(database.db, { provider: payments.settlement, period });
  const holders = registry.lists.settlement.join(', ') || 'no provider';
  console.log(
    `Ledger: ${report.transactions} transactions, ${report.entries} entries, total ${report.total} kobo; compared, provider by provider, with the records of ${holders}`,
  );
  const problems = ledgerProblems(report);
  for (const problem of problems) console.log(`- ${problem}`);
  console.log(problems.length === 0 ? 'The books balance.' : `${problems.length} problem(s).`);
  process.exitCode = problems.length === 0 ? 0 : 1;
} finally {
  await database.close();
}
