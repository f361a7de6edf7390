// The Termii adapter against the Termii simulator: the call it makes (Termii's Messaging API as its
// docs publish it), where the API key goes, and which failures it says a retry may help. The
// contract suites run on it too (providers/sms.test.ts); the `sms.send` job's use of what it
// throws is termii-job.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTermiiSimulator,
  type TTermiiSimulator,
} from '../../testing/termii-simulator/termii-simulator';
import { notSentBy } from '../sms.contract';
import { termiiSmsSender, type TTermiiSenderOptions } from './termii-sender';

let termii: TTermiiSimulator;
beforeAll(async () => {
  termii = await startTermiiSimulator({ senderIds: ['OyaMoney', 'Other'] });
});
afterAll(() => termii.close());

const optionsFor = (more: Partial<TTermiiSenderOptions> = {}): TTermiiSenderOptions => ({
  apiKey: termii.apiKey,
  senderId: 'OyaMoney',
  baseUrl: termii.url,
  ...more,
});

/** The requests the simulator got from here on. */
const requestsAfter = (from: number) => termii.requests.slice(from);

describe('the call to Termii', () => {
  it('posts a plain SMS from the sender ID on the DND route, to the number without its +', async () => {
    const before = termii.requests.length;
    const body = 'Oya Money: your code is 123456. ₦0.00\n\n@localhost #123456';
    await termiiSmsSender(optionsFor()).send('+2348031234567', body);
    const [request] = requestsAfter(before);
    expect(request).toMatchObject({ method: 'POST', path: '/api/sms/send' });
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toEqual({
      to: '2348031234567',
      from: 'OyaMoney',
      sms: body,
      type: 'plain',
      channel: 'dnd',
      api_key: termii.apiKey,
    });
    expect(termii.messages.at(-1)).toMatchObject({ to: '2348031234567', sms: body });
  });

  it('carries the API key in the body only: not in the URL, not in a header', async () => {
    const before = termii.requests.length;
    await termiiSmsSender(optionsFor()).send('+2348031234568', 'Hello');
    const [request] = requestsAfter(before);
    expect(request?.path).not.toContain(termii.apiKey);
    expect(Object.values(request?.headers ?? {}).join('\n')).not.toContain(termii.apiKey);
    expect(request?.body).toMatchObject({ api_key: termii.apiKey });
  });

  it('takes a base URL with a trailing slash as the same API', async () => {
    await termiiSmsSender(optionsFor({ baseUrl: `${termii.url}/` })).send('+2348031234569', 'Hi');
    expect(termii.requests.at(-1)?.path).toBe('/api/sms/send');
  });
});

describe('what Termii refused: not worth a retry', () => {
  it('refuses a number not in international format before calling Termii', async () => {
    const before = termii.requests.length;
    for (const number of ['08031234567', '2348031234567', '+234 803 123 4567', '']) {
      const error = await notSentBy(termiiSmsSender(optionsFor()).send(number, 'Hello'));
      expect(error.retryable).toBe(false);
    }
    expect(requestsAfter(before)).toEqual([]);
  });

  it('says a refused key is the configuration, and never shows the key', async () => {
    const wrongKey = 'TLwrong-key-that-must-not-be-logged';
    const error = await notSentBy(
      termiiSmsSender(optionsFor({ apiKey: wrongKey })).send('+2348031234570', 'Hello'),
    );
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      'Termii refused the API key (HTTP 401: Unauthorized): check TERMII_API_KEY',
    );
  });

  it('refuses a sender ID not registered, and a route not set up on the account', async () => {
    const unregistered = await notSentBy(
      termiiSmsSender(optionsFor({ senderId: 'Unknown' })).send('+2348031234571', 'Hello'),
    );
    expect(unregistered).toMatchObject({
      retryable: false,
      message: 'Termii refused the message (HTTP 400: Invalid Sender Id)',
    });
    const noDnd = await startTermiiSimulator({ routes: ['generic'] });
    try {
      const refused = await notSentBy(
        termiiSmsSender({
          apiKey: noDnd.apiKey,
          senderId: noDnd.senderId,
          baseUrl: noDnd.url,
        }).send('+2348031234572', 'Hello'),
      );
      expect(refused).toMatchObject({
        retryable: false,
        message: 'Termii refused the message (HTTP 400: You are not set up on this route)',
      });
    } finally {
      await noDnd.close();
    }
  });

  it('masks the API key should Termii echo it in a refusal', async () => {
    termii.failNext(400, `Key ${termii.apiKey} has no balance`);
    const error = await notSentBy(termiiSmsSender(optionsFor()).send('+2348031234573', 'Hello'));
    expect(error.message).toBe(
      'Termii refused the message (HTTP 400: Key [api_key] has no balance)',
    );
  });
});

describe('no answer from Termii: worth a retry', () => {
  it('gives up on a call that does not answer within its time limit', async () => {
    termii.hangNext();
    const error = await notSentBy(
      termiiSmsSender(optionsFor({ timeoutMs: 300 })).send('+2348031234574', 'Hello'),
    );
    expect(error).toMatchObject({
      retryable: true,
      message: 'Termii gave no answer: no answer within 300 ms',
    });
  });

  it("takes Termii's own failures, too many requests and a lost answer as no answer", async () => {
    for (const status of [500, 502, 503, 429]) {
      termii.failNext(status);
      const error = await notSentBy(termiiSmsSender(optionsFor()).send('+2348031234575', 'Hello'));
      expect(error).toMatchObject({
        retryable: true,
        message: `Termii gave no answer: HTTP ${status}`,
      });
    }
    termii.loseNextAnswer();
    const lost = await notSentBy(termiiSmsSender(optionsFor()).send('+2348031234576', 'Hello'));
    expect(lost.retryable).toBe(true);
    // The lost answer's message went all the same: why a retry may send it twice.
    expect(termii.messages.filter((message) => message.to === '2348031234576')).toHaveLength(1);
  });

  it('takes a server that does not listen as no answer', async () => {
    const gone = await startTermiiSimulator();
    await gone.close();
    const error = await notSentBy(
      termiiSmsSender({ apiKey: gone.apiKey, senderId: gone.senderId, baseUrl: gone.url }).send(
        '+2348031234577',
        'Hello',
      ),
    );
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/^Termii gave no answer: fetch failed \(ECONNREFUSED\)$/);
  });
});
