/**
 * Runs the Africa's Talking simulator on its own, for a person running the product against it:
 *
 *   PORT=4021 npx tsx src/server/testing/africastalking-simulator/main.ts
 *
 * AFRICASTALKING_USERNAME, AFRICASTALKING_API_KEY and AFRICASTALKING_SENDER_ID set the username
 * and key it accepts and the sender ID registered on it. It prints `Africa's Talking simulator on
 * http://…` once it listens, then each message it sends, text and all: with
 * SMS_PROVIDER=africastalking there is no sandbox outbox, and this is where a local run's codes
 * arrive. It stops on SIGINT or SIGTERM.
 */
import { startAfricasTalkingSimulator } from './africastalking-simulator';

const port = Number(process.env.PORT ?? 4021);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`PORT must be a port number, not ${process.env.PORT}`);
  process.exit(2);
}

const env = process.env;
const simulator = await startAfricasTalkingSimulator({
  port,
  ...(env.AFRICASTALKING_USERNAME ? { username: env.AFRICASTALKING_USERNAME } : {}),
  ...(env.AFRICASTALKING_API_KEY ? { apiKey: env.AFRICASTALKING_API_KEY } : {}),
  ...(env.AFRICASTALKING_SENDER_ID ? { senderIds: [env.AFRICASTALKING_SENDER_ID] } : {}),
  onMessage: (message) =>
    console.log(
      `SMS ${message.messageId} to ${message.to} from ${message.from}:\n${message.message}\n`,
    ),
});
console.log(
  `Africa's Talking simulator on ${simulator.url} (username ${simulator.username}, sender ID ${simulator.senderId})`,
);

const stop = () => {
  void simulator.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
