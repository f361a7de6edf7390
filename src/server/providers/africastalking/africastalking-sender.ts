import { ProviderKeyRefused, ProviderNoAnswer, callProvider } from '../provider-call';
import { SmsNotSent, type TSmsSender } from '../sms-port';
import { faultOf, messagingCall, type TAfricasTalkingOptions } from './africastalking-messaging';

/*
 * The Africa's Talking adapter of the SMS port (docs/providers/africastalking.md): each message
 * is one call of its messaging API (africastalking-messaging.ts), to one number, from the
 * registered sender ID.
 *
 * What is retried, as with Termii (termii-sender.ts): Africa's Talking takes no key of ours that
 * would let it drop a message sent twice. A refusal (a recipient's 4xx statusCode, a refused key)
 * sent nothing and would be refused again: thrown as not retryable, the message ends unsent, and
 * a number Africa's Talking will not reach is the number's fault (the payer may give another). No
 * answer (a timeout, a broken connection, an HTTP 5xx, a recipient's 500 or 501, a status it
 * does not document) leaves it unknown whether the message went: thrown as retryable, and the job
 * sends it again. A payer may then get a message twice, which we chose over a code that never
 * arrives; a code is never sent after it expired (jobs/sms-job.ts).
 */

/** Numbers as the queue keeps them: E.164, '+' and 8 to 15 digits (what Africa's Talking takes). */
const E164 = /^\+[1-9]\d{7,14}$/;

export function africasTalkingSmsSender(options: TAfricasTalkingOptions): TSmsSender {
  return {
    async send(phoneNumber, body) {
      if (!E164.test(phoneNumber)) {
        throw new SmsNotSent(
          "Africa's Talking takes numbers in international format: this one is not",
          false,
          'number',
        );
      }
      const answer = await callProvider(messagingCall(options, phoneNumber, body)).catch(
        (error: unknown) => {
          throw notSent(error);
        },
      );
      if (answer.outcome === 'refused') {
        throw new SmsNotSent(`Africa's Talking ${answer.reason}`, false, faultOf(answer.code));
      }
    },
  };
}

/** What the provider-call helper threw, as the SMS port says it: why, and whether to retry. */
function notSent(error: unknown): Error {
  if (error instanceof ProviderKeyRefused) {
    return new SmsNotSent(
      `Africa's Talking refused the username or API key (HTTP ${error.status}): check AFRICASTALKING_USERNAME and AFRICASTALKING_API_KEY`,
      false,
    );
  }
  if (error instanceof ProviderNoAnswer) {
    return new SmsNotSent(`Africa's Talking gave no answer: ${error.reason}`, true);
  }
  // Not the provider's: a fault of ours, for the job to log and retry as any other.
  return error instanceof Error ? error : new Error(String(error));
}
