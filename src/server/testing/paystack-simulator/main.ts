/**
 * Runs the Paystack simulator on its own, for the browser tests and for a person running the
 * product against it:
 *
 *   PORT=4010 NOTICE_URL=http://127.0.0.1:3000/api/… npx tsx src/server/testing/paystack-simulator/main.ts
 *
 * PAYSTACK_SECRET_KEY sets the key it accepts (and signs notices with). It prints one line,
 * `Paystack simulator on http://…`, once it listens, and stops on SIGINT or SIGTERM.
 */
import { startPaystackSimulator } from './paystack-simulator';

const port = Number(process.env.PORT ?? 4010);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`PORT must be a port number, not ${process.env.PORT}`);
  process.exit(2);
}

const simulator = await startPaystackSimulator({
  port,
  noticeUrl: process.env.NOTICE_URL || null,
  ...(process.env.PAYSTACK_SECRET_KEY ? { secretKey: process.env.PAYSTACK_SECRET_KEY } : {}),
});
console.log(`Paystack simulator on ${simulator.url}`);

const stop = () => {
  void simulator.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
