// The Termii adapter against Termii itself: what only Termii can confirm of what the simulator
// plays. Opt-in: it runs only where TERMII_TEST_API_KEY is set (vitest.config.ts leaves it out
// otherwise, and .ci/run says that it did not run). It sends one real SMS, to TERMII_TEST_PHONE,
// from TERMII_TEST_SENDER_ID, and costs that message; the refusals it checks send nothing.
import { describe, expect, it } from 'vitest';
import { notSentBy } from '../sms.contract';
import { termiiSmsSender } from './termii-sender';

const apiKey = process.env.TERMII_TEST_API_KEY ?? '';
const phone = process.env.TERMII_TEST_PHONE ?? '';
const senderId = process.env.TERMII_TEST_SENDER_ID ?? '';
if (!apiKey) throw new Error('TERMII_TEST_API_KEY must hold a Termii API key');
if (!/^\+[1-9]\d{7,14}$/.test(phone)) {
  throw new Error('TERMII_TEST_PHONE must be a number in international format (+2348031234567)');
}
if (!senderId) throw new Error('TERMII_TEST_SENDER_ID must be a sender ID registered with Termii');

const baseUrl = process.env.TERMII_BASE_URL ?? 'https://api.ng.termii.com';

describe('Termii itself', () => {
  it('takes a message on the DND route from the registered sender ID', async () => {
    const sender = termiiSmsSender({ apiKey, senderId, baseUrl });
    await sender.send(
      phone,
      `Oya Money: a check of the Termii adapter, ${new Date().toISOString()}`,
    );
  });

  it('refuses a wrong key, and the adapter says no retry can help', async () => {
    const sender = termiiSmsSender({ apiKey: `${apiKey}x`, senderId, baseUrl });
    const error = await notSentBy(sender.send(phone, 'Not sent: a wrong key'));
    expect(error.retryable).toBe(false);
    expect(error.message).not.toContain(apiKey);
  });

  it('refuses a sender ID not registered, and the adapter says no retry can help', async () => {
    const sender = termiiSmsSender({ apiKey, senderId: 'Zq9Unknown', baseUrl });
    const error = await notSentBy(sender.send(phone, 'Not sent: an unknown sender ID'));
    expect(error.retryable).toBe(false);
  });
});
