// The Africa's Talking adapter against Africa's Talking itself: what only Africa's Talking can
// confirm of what the simulator plays. Opt-in: it runs only where AFRICASTALKING_TEST_API_KEY is
// set (vitest.config.ts leaves it out otherwise, and .ci/run says that it did not run). It sends
// one SMS to AFRICASTALKING_TEST_PHONE from AFRICASTALKING_TEST_SENDER_ID, as the application
// AFRICASTALKING_TEST_USERNAME: with 'sandbox' it goes to Africa's Talking's sandbox (its
// simulator app shows it, nothing is billed), else it is a real SMS and costs that message. The
// refusals it checks send nothing.
import { describe, expect, it } from 'vitest';
import { AFRICASTALKING_LIVE_URL, AFRICASTALKING_SANDBOX_URL } from './descriptor';
import { notSentBy } from '../sms.contract';
import { africasTalkingSmsSender } from './africastalking-sender';

const apiKey = process.env.AFRICASTALKING_TEST_API_KEY ?? '';
const username = process.env.AFRICASTALKING_TEST_USERNAME ?? '';
const phone = process.env.AFRICASTALKING_TEST_PHONE ?? '';
const senderId = process.env.AFRICASTALKING_TEST_SENDER_ID ?? '';
if (!apiKey) throw new Error("AFRICASTALKING_TEST_API_KEY must hold an Africa's Talking API key");
if (!username) {
  throw new Error(
    "AFRICASTALKING_TEST_USERNAME must name the key's application ('sandbox' for the sandbox)",
  );
}
if (!/^\+[1-9]\d{7,14}$/.test(phone)) {
  throw new Error(
    'AFRICASTALKING_TEST_PHONE must be a number in international format (+2348031234567)',
  );
}
if (!senderId) {
  throw new Error(
    "AFRICASTALKING_TEST_SENDER_ID must be a sender ID registered with Africa's Talking",
  );
}

const baseUrl =
  process.env.AFRICASTALKING_BASE_URL ??
  (username === 'sandbox' ? AFRICASTALKING_SANDBOX_URL : AFRICASTALKING_LIVE_URL);

describe("Africa's Talking itself", () => {
  it('takes a message from the registered sender ID', async () => {
    const sender = africasTalkingSmsSender({ username, apiKey, senderId, baseUrl });
    await sender.send(
      phone,
      `Oya Money: a check of the Africa's Talking adapter, ${new Date().toISOString()}`,
    );
  });

  it('refuses a wrong key, and the adapter says no retry can help', async () => {
    const sender = africasTalkingSmsSender({ username, apiKey: `${apiKey}x`, senderId, baseUrl });
    const error = await notSentBy(sender.send(phone, 'Not sent: a wrong key'));
    expect(error.retryable).toBe(false);
    expect(error.message).not.toContain(apiKey);
  });

  it('refuses a sender ID not registered, and the adapter says no retry can help', async () => {
    const sender = africasTalkingSmsSender({ username, apiKey, senderId: 'Zq9Unknown', baseUrl });
    const error = await notSentBy(sender.send(phone, 'Not sent: an unknown sender ID'));
    expect(error.retryable).toBe(false);
  });
});
