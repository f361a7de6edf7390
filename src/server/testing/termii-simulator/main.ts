/**
 * Runs the Termii simulator on its own, for a person running the product against it:
 *
 *   PORT=4020 npx tsx src/server/testing/termii-simulator/main.ts
 *
 * TERMII_API_KEY and TERMII_SENDER_ID set the key it accepts and the sender ID registered on it.
 * It prints `Termii simulator on http://…` once it listens, then each message it accepts, text
 * and all: with SMS_PROVIDER=termii there is no sandbox outbox, and this is where a local run's
 * codes arrive. It stops on SIGINT or SIGTERM.
 */
import { startTermiiSimulator } from './termii-simulator';

const port = Number(process.env.PORT ?? 4020);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`PORT must be a port number, not ${process.env.PORT}`);
  process.exit(2);
}

const simulator = await startTermiiSimulator({
  port,
  ...(process.env.TERMII_API_KEY ? { apiKey: process.env.TERMII_API_KEY } : {}),
  ...(process.env.TERMII_SENDER_ID ? { senderIds: [process.env.TERMII_SENDER_ID] } : {}),
  onMessage: (message) =>
    console.log(
      `SMS ${message.messageId} to ${message.to} from ${message.from}:\n${message.sms}\n`,
    ),
});
console.log(`Termii simulator on ${simulator.url} (sender ID ${simulator.senderId})`);

const stop = () => {
  void simulator.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
