// The Termii simulator answers as Termii's docs say Termii does (README.md beside it): what it
// takes, what it refuses and with which words, and the failures a test can ask of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTermiiSimulator, type TTermiiSimulator } from './termii-simulator';

let termii: TTermiiSimulator;
beforeAll(async () => {
  termii = await startTermiiSimulator({ senderIds: ['OyaMoney', 'Alerts'], balance: 1_000 });
});
afterAll(() => termii.close());

/** A body Termii takes; `more` changes or adds fields. */
const message = (more: Record<string, unknown> = {}) => ({
  api_key: termii.apiKey,
  to: '2348031234567',
  from: 'OyaMoney',
  sms: 'Hi there, testing Termii',
  type: 'plain',
  channel: 'dnd',
  ...more,
});

async function post(body: unknown, path = '/api/sms/send') {
  const response = await fetch(`${termii.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('POST /api/sms/send', () => {
  it("takes a plain SMS and answers Termii's message_id, message, balance and user", async () => {
    const answer = await post(message({ to: '2348031230001' }));
    expect(answer).toEqual({
      status: 200,
      body: {
        code: 'ok',
        message_id: expect.stringMatching(/^\d+$/),
        message_id_str: answer.body.message_id,
        message: 'Successfully Sent',
        balance: expect.any(Number),
        user: 'Termii Simulator',
      },
    });
    expect(termii.messages.at(-1)).toEqual({
      messageId: answer.body.message_id,
      to: '2348031230001',
      from: 'OyaMoney',
      sms: 'Hi there, testing Termii',
      channel: 'dnd',
      type: 'plain',
    });
  });

  it('gives each message its own id, and takes one from each sender ID registered', async () => {
    const first = await post(message({ to: '2348031230002' }));
    const second = await post(message({ to: '2348031230002', from: 'Alerts', channel: 'generic' }));
    expect(second.status).toBe(200);
    expect(second.body.message_id).not.toBe(first.body.message_id);
    expect(second.body.balance).toBe((first.body.balance as number) - 1);
  });

  it('refuses a wrong or missing key: 401 Unauthorized, and keeps nothing', async () => {
    const before = termii.messages.length;
    expect(await post(message({ api_key: 'TLwrong' }))).toEqual({
      status: 401,
      body: { message: 'Unauthorized' },
    });
    const { api_key: _key, ...withoutKey } = message();
    expect((await post(withoutKey)).status).toBe(401);
    expect(termii.messages).toHaveLength(before);
  });

  it('refuses a sender ID not registered on the account: Invalid Sender Id', async () => {
    expect(await post(message({ from: 'Stranger' }))).toEqual({
      status: 400,
      body: { message: 'Invalid Sender Id' },
    });
  });

  it('refuses a number not in international format (digits only, no +)', async () => {
    for (const to of ['+2348031234567', '08031234567', '234 803 123 4567', '23480']) {
      expect(await post(message({ to }))).toEqual({
        status: 400,
        body: {
          message: 'Phone number must be in the international format (Example: 23490126727)',
        },
      });
    }
  });

  it('refuses a missing field, another type, a body that is not JSON and an unknown path', async () => {
    const { sms: _sms, ...withoutText } = message();
    expect(await post(withoutText)).toEqual({
      status: 400,
      body: { message: 'The sms field is required.' },
    });
    expect((await post(message({ type: 'unicode' }))).status).toBe(400);
    expect((await post('to=2348031234567')).status).toBe(400);
    expect((await post(message(), '/api/sms/otp/send')).status).toBe(404);
  });

  it('refuses a route not set up on the account, and a message beyond the balance', async () => {
    const small = await startTermiiSimulator({ routes: ['generic'], balance: 1 });
    try {
      const send = (channel: string) =>
        fetch(`${small.url}/api/sms/send`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            ...message(),
            api_key: small.apiKey,
            from: small.senderId,
            channel,
          }),
        }).then(async (response) => ({ status: response.status, body: await response.json() }));
      expect(await send('dnd')).toEqual({
        status: 400,
        body: { message: 'You are not set up on this route' },
      });
      expect((await send('generic')).status).toBe(200);
      expect(await send('generic')).toEqual({
        status: 400,
        body: { message: 'Insufficient balance' },
      });
      expect(small.messages).toHaveLength(1);
    } finally {
      await small.close();
    }
  });

  it('keeps every request, key and all, for a test to read', async () => {
    await post(message({ to: '2348031230003' }));
    expect(termii.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/api/sms/send',
      headers: expect.objectContaining({ 'content-type': 'application/json' }),
      body: message({ to: '2348031230003' }),
    });
  });
});

describe("a test's failures", () => {
  it('answers the next request with the status asked, without effect', async () => {
    const before = termii.messages.length;
    termii.failNext(503);
    expect(await post(message())).toEqual({ status: 503, body: { message: 'Server Error' } });
    termii.failNext(400, 'Insufficient balance');
    expect(await post(message())).toEqual({
      status: 400,
      body: { message: 'Insufficient balance' },
    });
    expect(termii.messages).toHaveLength(before);
    expect((await post(message())).status).toBe(200);
  });

  it('holds the next request unanswered, and loses the answer of another that took effect', async () => {
    termii.hangNext();
    const held = fetch(`${termii.url}/api/sms/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message({ to: '2348031230004' })),
      signal: AbortSignal.timeout(200),
    });
    await expect(held).rejects.toThrow(/timeout|aborted/i);
    expect(termii.messages.filter((taken) => taken.to === '2348031230004')).toEqual([]);

    termii.loseNextAnswer();
    await expect(post(message({ to: '2348031230005' }))).rejects.toThrow();
    expect(termii.messages.filter((taken) => taken.to === '2348031230005')).toHaveLength(1);
  });
});
