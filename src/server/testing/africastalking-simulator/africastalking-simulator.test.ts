// The simulator answers as Africa's Talking's docs say it does (README.md beside it): what it
// sends, what it refuses and with which codes, and the failures a test can ask of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MESSAGE_COST_KOBO,
  startAfricasTalkingSimulator,
  type TAfricasTalkingSimulator,
} from './africastalking-simulator';

let at: TAfricasTalkingSimulator;
beforeAll(async () => {
  at = await startAfricasTalkingSimulator({
    senderIds: ['OyaMoney', 'Alerts'],
    blacklist: ['+2348031230099'],
  });
});
afterAll(() => at.close());

/** A form Africa's Talking takes; `more` changes or adds fields. */
const form = (more: Record<string, string> = {}) => ({
  username: at.username,
  to: '+2348031230001',
  message: 'Hi there, testing',
  from: 'OyaMoney',
  ...more,
});

async function post(
  fields: Record<string, string>,
  headers: Record<string, string> = {},
  simulator = at,
) {
  const response = await fetch(`${simulator.url}/version1/messaging`, {
    method: 'POST',
    headers: {
      apiKey: simulator.apiKey,
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json');
  return { status: response.status, body: isJson ? (JSON.parse(text) as unknown) : text };
}

/** The recipients of a JSON answer. */
const recipientsOf = (body: unknown) =>
  (body as { SMSMessageData: { Recipients: Array<Record<string, unknown>> } }).SMSMessageData
    .Recipients;

describe('POST /version1/messaging', () => {
  it('sends to a number and answers 201 with its recipient: 101, its cost and message id', async () => {
    const answer = await post(form());
    expect(answer).toEqual({
      status: 201,
      body: {
        SMSMessageData: {
          Message: 'Sent to 1/1 Total Cost: NGN 2.2000',
          Recipients: [
            {
              statusCode: 101,
              number: '+2348031230001',
              status: 'Success',
              cost: 'NGN 2.2000',
              messageId: expect.stringMatching(/^ATXid_[0-9a-f]{32}$/),
            },
          ],
        },
      },
    });
    expect(at.messages.at(-1)).toEqual({
      messageId: recipientsOf(answer.body)[0]?.messageId,
      to: '+2348031230001',
      from: 'OyaMoney',
      message: 'Hi there, testing',
    });
  });

  it('answers each of several numbers, sending to those it may', async () => {
    const answer = await post(form({ to: '+2348031230002,08031230003,+2348031230099' }));
    expect(answer.status).toBe(201);
    expect(recipientsOf(answer.body)).toEqual([
      expect.objectContaining({ statusCode: 101, number: '+2348031230002' }),
      {
        statusCode: 403,
        number: '08031230003',
        status: 'InvalidPhoneNumber',
        cost: '0',
        messageId: 'None',
      },
      {
        statusCode: 406,
        number: '+2348031230099',
        status: 'UserInBlacklist',
        cost: '0',
        messageId: 'None',
      },
    ]);
    expect((answer.body as { SMSMessageData: { Message: string } }).SMSMessageData.Message).toBe(
      'Sent to 1/3 Total Cost: NGN 2.2000',
    );
  });

  it('refuses a sender ID not registered (402), and takes each registered one', async () => {
    expect(recipientsOf((await post(form({ from: 'Stranger' }))).body)[0]).toMatchObject({
      statusCode: 402,
      status: 'InvalidSenderId',
    });
    expect(recipientsOf((await post(form({ from: 'Alerts' }))).body)[0]).toMatchObject({
      statusCode: 101,
    });
  });

  it('refuses a wrong key or username: 401, in text, and sends nothing', async () => {
    const before = at.messages.length;
    const refused = { status: 401, body: 'The supplied authentication is invalid' };
    expect(await post(form(), { apiKey: 'atsk_wrong' })).toEqual(refused);
    expect(await post(form({ username: 'someone' }))).toEqual(refused);
    expect(at.messages).toHaveLength(before);
  });

  it('refuses a missing field, an answer it cannot give as JSON, and an unknown path', async () => {
    const { to: _to, ...withoutTo } = form();
    expect(await post(withoutTo)).toEqual({
      status: 400,
      body: "Request is missing required form field 'to'",
    });
    expect((await post(form(), { accept: 'application/xml' })).status).toBe(406);
    const elsewhere = await fetch(`${at.url}/version1/messaging/bulk`, { method: 'POST' });
    expect(elsewhere.status).toBe(404);
  });

  it('refuses a message beyond the balance: 405, nothing sent', async () => {
    const poor = await startAfricasTalkingSimulator({ balanceKobo: MESSAGE_COST_KOBO });
    try {
      const fields = {
        username: poor.username,
        to: '+2348031230004',
        message: 'Hi',
        from: poor.senderId,
      };
      expect(recipientsOf((await post(fields, {}, poor)).body)[0]).toMatchObject({
        statusCode: 101,
      });
      expect(recipientsOf((await post(fields, {}, poor)).body)[0]).toMatchObject({
        statusCode: 405,
        status: 'InsufficientBalance',
      });
      expect(poor.messages).toHaveLength(1);
    } finally {
      await poor.close();
    }
  });

  it('keeps every request, key and all, for a test to read', async () => {
    await post(form({ to: '+2348031230005' }));
    expect(at.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/version1/messaging',
      headers: expect.objectContaining({ apikey: at.apiKey }),
      body: form({ to: '+2348031230005' }),
    });
  });
});

describe("a test's failures", () => {
  it('answers the next request’s recipients with the code asked, sending nothing; 409 as HTTP 409', async () => {
    const before = at.messages.length;
    at.refuseNext(405);
    const refused = await post(form());
    expect(refused.status).toBe(201);
    expect(recipientsOf(refused.body)[0]).toMatchObject({ statusCode: 405, messageId: 'None' });
    at.refuseNext(409);
    const night = await post(form());
    expect(night.status).toBe(409);
    expect(recipientsOf(night.body)[0]).toMatchObject({
      statusCode: 409,
      status: 'DoNotDisturbRejection',
    });
    expect(at.messages).toHaveLength(before);
    expect(recipientsOf((await post(form())).body)[0]).toMatchObject({ statusCode: 101 });
  });

  it('answers the next request with an HTTP failure, without effect', async () => {
    const before = at.messages.length;
    at.failNext(503);
    expect(await post(form())).toEqual({ status: 503, body: 'Internal Server Error' });
    expect(at.messages).toHaveLength(before);
  });

  it('holds the next request unanswered, and loses the answer of another that took effect', async () => {
    at.hangNext();
    const held = fetch(`${at.url}/version1/messaging`, {
      method: 'POST',
      headers: { apiKey: at.apiKey, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form({ to: '+2348031230006' })).toString(),
      signal: AbortSignal.timeout(200),
    });
    await expect(held).rejects.toThrow(/timeout|aborted/i);
    expect(at.messages.filter((m) => m.to === '+2348031230006')).toEqual([]);

    at.loseNextAnswer();
    await expect(post(form({ to: '+2348031230007' }))).rejects.toThrow();
    expect(at.messages.filter((m) => m.to === '+2348031230007')).toHaveLength(1);
  });
});
