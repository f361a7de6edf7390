/**
 * Runs the Remita simulator on its own, for a person running the product against it:
 *
 *   PORT=4030 npx tsx src/server/testing/remita-simulator/main.ts
 *
 * It prints the REMITA_* settings that reach it. Any account at a bank Remita lists is held the
 * first time it is named, activated by the OTP 1234 and its number's last 4 digits as the card's.
 * A mandate on its printable form is activated "at the bank" by typing its mandateId and Enter.
 * It stops on SIGINT or SIGTERM.
 */
import { createInterface } from 'node:readline';
import { startRemitaSimulator } from './remita-simulator';

const port = Number(process.env.PORT ?? 4030);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`PORT must be a port number, not ${process.env.PORT}`);
  process.exit(2);
}

const simulator = await startRemitaSimulator({ port, openAccounts: true });
console.log(`Remita simulator on ${simulator.url}`);
console.log(
  [
    'MANDATE_PROVIDER=remita',
    `REMITA_BASE_URL=${simulator.url}`,
    `REMITA_MERCHANT_ID=${simulator.merchantId}`,
    `REMITA_SERVICE_TYPE_ID=${simulator.serviceTypeId}`,
    `REMITA_API_KEY=${simulator.apiKey}`,
    `REMITA_API_TOKEN=${simulator.apiToken}`,
  ].join(' '),
);

createInterface({ input: process.stdin }).on('line', (line) => {
  const mandateId = line.trim();
  if (!mandateId) return;
  try {
    simulator.activateAtBank(mandateId);
    console.log(`Mandate ${mandateId} activated at the bank`);
  } catch (error) {
    console.log(error instanceof Error ? error.message : String(error));
  }
});

const stop = () => {
  void simulator.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
