/**
 * Runs the Monnify simulator on its own, for browser tests and for a person running the product
 * against it:
 *
 *   PORT=4030 NOTICE_URL=http://127.0.0.1:3000/api/providers/monnify/notices npx tsx src/server/testing/monnify-simulator/main.ts
 *
 * MONNIFY_API_KEY, MONNIFY_SECRET_KEY and MONNIFY_CONTRACT_CODE set the credentials it accepts
 * (the secret signs its notices). It prints `Monnify simulator on http://…` once it listens, and
 * stops on SIGINT or SIGTERM.
 */
import { startMonnifySimulator } from './monnify-simulator';

const port = Number(process.env.PORT ?? 4030);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`PORT must be a port number, not ${process.env.PORT}`);
  process.exit(2);
}

const simulator = await startMonnifySimulator({
  port,
  noticeUrl: process.env.NOTICE_URL || null,
  ...(process.env.MONNIFY_API_KEY ? { apiKey: process.env.MONNIFY_API_KEY } : {}),
  ...(process.env.MONNIFY_SECRET_KEY ? { secretKey: process.env.MONNIFY_SECRET_KEY } : {}),
  ...(process.env.MONNIFY_CONTRACT_CODE ? { contractCode: process.env.MONNIFY_CONTRACT_CODE } : {}),
});
console.log(`Monnify simulator on ${simulator.url} (wallet ${simulator.walletAccountNumber})`);

const stop = () => {
  void simulator.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
