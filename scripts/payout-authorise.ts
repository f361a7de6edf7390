// npm run payout:authorise -- <payoutId> <OTP> — authorises a payout Monnify holds for the
// merchant's OTP, with the code Monnify sent (docs/providers/monnify.md "Payouts and Monnify's
// OTP"). Run with the server's settings (MONNIFY_*) against its database (DATA_DIR or
// DATABASE_URL); with the embedded database, stop the server first (PGlite is one process's).
// Books nothing: the payout ends by Monnify's notice or the reconciler's requery. Exits 1 when
// nothing was authorised.
import { systemClock } from '../src/server/clock';
import { loadConfig } from '../src/server/config';
import { openConfiguredDatabase } from '../src/server/db/database';
import {
  authoriseMonnifyPayout,
  type TPayoutAuthorisation,
} from '../src/server/providers/monnify/payout-otp';

const [payoutId, given] = process.argv.slice(2);
const otp = given?.trim();
if (!payoutId || !otp) {
  console.error('Usage: npm run payout:authorise -- <payoutId> <OTP Monnify sent>');
  process.exit(2);
}

const said = (answer: TPayoutAuthorisation): string => {
  switch (answer.kind) {
    case 'authorised':
      return answer.outcome.kind === 'taken'
        ? `Payout ${payoutId}: authorised, and Monnify sent it (${answer.outcome.providerReference}).`
        : answer.outcome.kind === 'not_taken'
          ? `Payout ${payoutId}: authorised, and the bank refused it (${answer.outcome.reason}); the amount goes back to the wallet.`
          : `Payout ${payoutId}: authorised; Monnify is still sending it.`;
    case 'refused':
      return `Payout ${payoutId}: not authorised. ${answer.reason}`;
    case 'unknown':
      return `No payout ${payoutId}.`;
    case 'elsewhere':
      return `Payout ${payoutId} was sent to ${answer.provider}, which asks no OTP of ours.`;
    case 'ended':
      return `Payout ${payoutId} is ${answer.status} already: nothing waits for a code.`;
    case 'not_configured':
      return 'This server runs no Monnify adapter: set MONNIFY_API_KEY, MONNIFY_SECRET_KEY and MONNIFY_CONTRACT_CODE.';
  }
};

const config = loadConfig();
const database = await openConfiguredDatabase(config);
try {
  const answer = await authoriseMonnifyPayout(
    { db: database.db, clock: systemClock, monnify: config.monnify },
    payoutId,
    otp,
  );
  console.log(said(answer));
  process.exitCode = answer.kind === 'authorised' ? 0 : 1;
} finally {
  await database.close();
}
