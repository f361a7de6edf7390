// The Africa's Talking adapter against the Africa's Talking simulator: the call it makes (the
// messaging API as its docs publish it), where the key goes, and which ends it says a retry may
// help. The answers' reading alone is africastalking-messaging.test.ts; the contract suites run
// on it in providers/sms.test.ts; the `sms.send` job's use of what it throws is
// africastalking-job.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAfricasTalkingSimulator,
  type TAfricasTalkingSimulator,
} from '../../testing/africastalking-simulator/africastalking-simulator';
import { notSentBy } from '../sms.contract';
import type { TAfricasTalkingOptions } from './africastalking-messaging';
import { africasTalkingSmsSender } from './africastalking-sender';

const BLACKLISTED = '+2348031239999';

let at: TAfricasTalkingSimulator;
beforeAll(async () => {
  at = await startAfricasTalkingSimulator({
    username: 'oyamoney',
    senderIds: ['OyaMoney', 'Other'],
    blacklist: [BLACKLISTED],
  });
});
afterAll(() => at.close());

const optionsFor = (more: Partial<TAfricasTalkingOptions> = {}): TAfricasTalkingOptions => ({
  username: at.username,
  apiKey: at.apiKey,
  senderId: 'OyaMoney',
  baseUrl: at.url,
  ...more,
});
const send = (to: string, more: Partial<TAfricasTalkingOptions> = {}) =>
  africasTalkingSmsSender(optionsFor(more)).send(to, 'Hello');

/** The requests the simulator got from here on. */
const requestsAfter = (from: number) => at.requests.slice(from);

describe("the call to Africa's Talking", () => {
  it('posts the form to /version1/messaging, the number with its +, from the sender ID', async () => {
    const before = at.requests.length;
    const body = 'Oya Money: your code is 123456. ₦0.00\n\n@localhost #123456';
    await africasTalkingSmsSender(optionsFor()).send('+2348031234567', body);
    const [request] = requestsAfter(before);
    expect(request).toMatchObject({ method: 'POST', path: '/version1/messaging' });
    expect(request?.headers).toMatchObject({
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    });
    expect(request?.body).toEqual({
      username: 'oyamoney',
      to: '+2348031234567',
      message: body,
      from: 'OyaMoney',
    });
    expect(at.messages.at(-1)).toMatchObject({ to: '+2348031234567', message: body });
  });

  it('carries the API key in the apiKey header only: not in the URL, not in the body', async () => {
    const before = at.requests.length;
    await send('+2348031234568');
    const [request] = requestsAfter(before);
    expect(request?.headers.apikey).toBe(at.apiKey);
    expect(request?.path).not.toContain(at.apiKey);
    expect(JSON.stringify(request?.body)).not.toContain(at.apiKey);
  });

  it('takes a base URL with a trailing slash as the same API', async () => {
    await send('+2348031234569', { baseUrl: `${at.url}/` });
    expect(at.requests.at(-1)?.path).toBe('/version1/messaging');
  });
});

describe("what Africa's Talking refused: not worth a retry", () => {
  it('refuses a number not in international format before calling', async () => {
    const before = at.requests.length;
    for (const number of ['08031234567', '2348031234567', '+234 803 123 4567', '']) {
      const error = await notSentBy(send(number));
      expect(error).toMatchObject({ retryable: false, fault: 'number' });
    }
    expect(requestsAfter(before)).toEqual([]);
  });

  it('says a refused key or username is the configuration, and never shows the key', async () => {
    const wrongKey = 'atsk_wrong-key-that-must-not-be-logged';
    for (const more of [{ apiKey: wrongKey }, { username: 'someone-else' }]) {
      const error = await notSentBy(send('+2348031234570', more));
      expect(error).toMatchObject({
        retryable: false,
        fault: 'service',
        message:
          "Africa's Talking refused the username or API key (HTTP 401): check AFRICASTALKING_USERNAME and AFRICASTALKING_API_KEY",
      });
      expect(error.message).not.toContain(wrongKey);
    }
  });

  it('refuses a sender ID not registered: the service’s to mend', async () => {
    const error = await notSentBy(send('+2348031234571', { senderId: 'Unknown' }));
    expect(error).toMatchObject({
      retryable: false,
      fault: 'service',
      message: "Africa's Talking refused the message (statusCode 402: InvalidSenderId)",
    });
  });

  it('refuses a number whose owner opted out: the number’s, the payer may give another', async () => {
    const error = await notSentBy(send(BLACKLISTED));
    expect(error).toMatchObject({
      retryable: false,
      fault: 'number',
      message: "Africa's Talking refused the message (statusCode 406: UserInBlacklist)",
    });
  });

  it('refuses a promotional sender at night in Nigeria (HTTP 409), and sends nothing', async () => {
    const before = at.messages.length;
    at.refuseNext(409);
    const error = await notSentBy(send('+2348031234572'));
    expect(error).toMatchObject({
      retryable: false,
      fault: 'service',
      message: "Africa's Talking refused the message (statusCode 409: DoNotDisturbRejection)",
    });
    expect(at.messages).toHaveLength(before);
  });
});

describe("no answer from Africa's Talking: worth a retry", () => {
  it('gives up on a call that does not answer within its time limit', async () => {
    at.hangNext();
    const error = await notSentBy(send('+2348031234574', { timeoutMs: 300 }));
    expect(error).toMatchObject({
      retryable: true,
      message: "Africa's Talking gave no answer: no answer within 300 ms",
    });
  });

  it('takes its own failures, per recipient or per call, and a lost answer as no answer', async () => {
    for (const code of [500, 501]) {
      at.refuseNext(code);
      const error = await notSentBy(send('+2348031234575'));
      expect(error.retryable).toBe(true);
      expect(error.message).toMatch(
        /^Africa's Talking gave no answer: statusCode 50[01]: \w+ \(HTTP 201\)$/,
      );
    }
    for (const status of [500, 503, 429]) {
      at.failNext(status);
      const error = await notSentBy(send('+2348031234575'));
      expect(error).toMatchObject({
        retryable: true,
        message: `Africa's Talking gave no answer: HTTP ${status}`,
      });
    }
    at.loseNextAnswer();
    const lost = await notSentBy(send('+2348031234576'));
    expect(lost.retryable).toBe(true);
    // The lost answer's message went all the same: why a retry may send it twice.
    expect(at.messages.filter((message) => message.to === '+2348031234576')).toHaveLength(1);
  });

  it('takes a server that does not listen as no answer', async () => {
    const gone = await startAfricasTalkingSimulator();
    await gone.close();
    const error = await notSentBy(send('+2348031234577', { baseUrl: gone.url }));
    expect(error.retryable).toBe(true);
    expect(error.message).toBe("Africa's Talking gave no answer: fetch failed (ECONNREFUSED)");
  });
});
