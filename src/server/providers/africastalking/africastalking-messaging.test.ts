// The call to Africa's Talking as the adapter describes it, and how it reads each answer: without
// HTTP (the sender's test runs them against the simulator).
import { describe, expect, it } from 'vitest';
import {
  RECIPIENT_STATUSES,
  faultOf,
  messagingCall,
  readMessagingAnswer,
} from './africastalking-messaging';

const options = {
  username: 'oyamoney',
  apiKey: 'atsk_key-that-must-not-show',
  senderId: 'OyaMoney',
  baseUrl: 'https://api.africastalking.com/',
};
const TO = '+2348031234567';

/** Africa's Talking's answer naming one recipient (the docs' example, its code changed). */
const answerOf = (statusCode: number, status = 201, number = TO) => ({
  status,
  text: JSON.stringify({
    SMSMessageData: {
      Message:
        statusCode === 101 ? 'Sent to 1/1 Total Cost: NGN 2.2000' : 'Sent to 0/1 Total Cost: 0',
      Recipients: [
        {
          statusCode,
          number,
          status: RECIPIENT_STATUSES[statusCode]?.name ?? 'Failed',
          cost: statusCode === 101 ? 'NGN 2.2000' : '0',
          messageId: statusCode === 101 ? 'ATXid_1' : 'None',
        },
      ],
    },
  }),
});
const read = (answer: { status: number; text: string }) =>
  readMessagingAnswer(answer, TO, options.apiKey);

describe('the call described', () => {
  it('posts username, to, message and from as a form to /version1/messaging, the key in the apiKey header', () => {
    const body = 'Oya Money: your code is 123456. ₦0.00\n\n@localhost #123456';
    const call = messagingCall(options, TO, body);
    expect(call).toMatchObject({
      provider: 'africastalking',
      call: 'messaging',
      method: 'POST',
      url: 'https://api.africastalking.com/version1/messaging',
      headers: { apiKey: options.apiKey, accept: 'application/json' },
      body: { form: { username: 'oyamoney', to: TO, message: body, from: 'OyaMoney' } },
      // It sends a message: the helper never asks it again.
      repeatable: false,
      timeoutMs: 10_000,
      keySetting: 'AFRICASTALKING_USERNAME and AFRICASTALKING_API_KEY',
    });
    expect(JSON.stringify(call.body)).not.toContain(options.apiKey);
    expect(call.url).not.toContain(options.apiKey);
  });
});

describe('the answer read, recipient first', () => {
  it.each([100, 101, 102])('takes statusCode %i as sent', (code) => {
    expect(read(answerOf(code))).toMatchObject({ outcome: 'answered' });
  });

  it.each([
    [401, 'RiskHold', 'service'],
    [402, 'InvalidSenderId', 'service'],
    [403, 'InvalidPhoneNumber', 'number'],
    [404, 'UnsupportedNumberType', 'number'],
    [405, 'InsufficientBalance', 'service'],
    [406, 'UserInBlacklist', 'number'],
    [407, 'CouldNotRoute', 'number'],
    [409, 'DoNotDisturbRejection', 'service'],
    [502, 'RejectedByGateway', 'service'],
  ] as const)('takes statusCode %i (%s) as a refusal, the %s’s', (code, name, fault) => {
    const reading = read(answerOf(code));
    expect(reading).toEqual({
      outcome: 'refused',
      reason: `refused the message (statusCode ${code}: ${name})`,
      code: String(code),
    });
    expect(faultOf(reading.outcome === 'refused' ? (reading.code ?? null) : null)).toBe(fault);
  });

  it.each([
    [500, 'InternalServerError'],
    [501, 'GatewayError'],
  ])('takes statusCode %i (%s) as no answer, worth a retry', (code, name) => {
    expect(read(answerOf(code))).toEqual({
      outcome: 'unknown',
      reason: `statusCode ${code}: ${name}`,
    });
  });

  it('takes a status code it does not document as no answer: whether it went is not known', () => {
    expect(read(answerOf(103))).toEqual({
      outcome: 'unknown',
      reason: 'a status it does not document (statusCode 103)',
    });
  });

  it('reads the recipient whatever the HTTP status: DoNotDisturbRejection comes as HTTP 409', () => {
    expect(read(answerOf(409, 409))).toMatchObject({ outcome: 'refused', code: '409' });
    expect(read(answerOf(101, 200))).toMatchObject({ outcome: 'answered' });
  });

  it('reads our number’s recipient where the answer lists more', () => {
    const text = JSON.stringify({
      SMSMessageData: {
        Recipients: [
          { statusCode: 403, number: '+2348000000000' },
          { statusCode: 101, number: TO, messageId: 'ATXid_2' },
        ],
      },
    });
    expect(read({ status: 201, text })).toEqual({
      outcome: 'answered',
      data: { messageId: 'ATXid_2' },
    });
  });

  it('takes an answer that sent to no one as a refusal', () => {
    const text = JSON.stringify({ SMSMessageData: { Message: 'Sent to 0/1', Recipients: [] } });
    expect(read({ status: 201, text })).toEqual({
      outcome: 'refused',
      reason: 'sent the message to no one',
      code: null,
    });
    expect(faultOf(null)).toBe('service');
  });
});

describe('the answer read without a recipient: by its HTTP status', () => {
  // A 401 or 403, a 5xx, 408 or 429 never reach the reader: the provider-call helper throws them.
  it('takes a 4xx as a refusal in Africa’s Talking’s words, the key masked', () => {
    const echoed = { status: 400, text: `Key ${options.apiKey} is missing field 'to'` };
    expect(read(echoed)).toEqual({
      outcome: 'refused',
      reason: "refused the message (HTTP 400: Key [apiKey] is missing field 'to')",
      code: null,
    });
  });

  it('takes a 2xx that is not Africa’s Talking’s answer as no answer', () => {
    for (const text of ['<html>proxy</html>', '{}', '{"SMSMessageData":{}}', '']) {
      expect(read({ status: 201, text })).toEqual({
        outcome: 'unknown',
        reason: "an answer that is not Africa's Talking's",
      });
    }
  });
});
