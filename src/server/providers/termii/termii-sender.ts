import { SmsNotSent, type TSmsSender } from '../sms-port';
import { sendTermiiSms, type TTermiiCallOptions } from './termii-calls';

/*
 * The Termii adapter of the SMS port (docs/providers/termii.md): each message is one call of
 * Termii's Messaging API, from the registered sender ID, on the DND route.
 *
 * The route: every message this server sends is transactional (sign-in codes, notices of a new
 * device or a removal, receipts, consent records). Termii's docs keep the generic route for
 * promotional messages: it never reaches a number on Do-Not-Disturb, MTN holds it back between
 * 8 PM and 8 AM, and codes sent on it risk the sender ID being blocked. So every message goes on
 * 'dnd', which the account must have activated by Termii's support.
 *
 * What is retried: Termii takes no key of ours that would let it drop a message sent twice. A
 * refusal (a 4xx) sent nothing and would be refused again: it is thrown as not retryable, and
 * the message ends unsent. No answer (a timeout, a broken connection, a 5xx) leaves it unknown
 * whether Termii sent it: it is thrown as retryable, and the job sends it again. A payer may then
 * get a message twice; we chose that over a code that never arrives, since a second copy of the
 * same text is harmless (the same code, the same receipt), while a lost code locks the payer
 * out. A code is never sent after it expired (jobs/sms-job.ts), so the retries of a code end
 * with it.
 */

export type TTermiiSenderOptions = TTermiiCallOptions & {
  /** The sender ID registered with Termii (TERMII_SENDER_ID). */
  senderId: string;
};

/** Numbers as the queue keeps them: E.164, '+' and 8 to 15 digits. */
const E164 = /^\+([1-9]\d{7,14})$/;

export function termiiSmsSender(options: TTermiiSenderOptions): TSmsSender {
  return {
    async send(phoneNumber, body) {
      // Termii takes the international format without '+' (its docs: 23490126727).
      const to = E164.exec(phoneNumber)?.[1];
      if (!to) {
        throw new SmsNotSent(
          'Termii takes numbers in international format: this one is not',
          false,
          'number',
        );
      }
      const answer = await sendTermiiSms(options, {
        to,
        from: options.senderId,
        sms: body,
        channel: 'dnd',
      });
      switch (answer.outcome) {
        case 'accepted':
          return;
        case 'refused':
          throw new SmsNotSent(refusalOf(answer.httpStatus, answer.message), false);
        case 'no-answer':
          throw new SmsNotSent(`Termii gave no answer: ${answer.reason}`, true);
      }
    },
  };
}

/** A refusal in words an operator can act on: a refused key is the configuration's fault. */
function refusalOf(httpStatus: number, said: string): string {
  const why = said === '' ? `HTTP ${httpStatus}` : `HTTP ${httpStatus}: ${said}`;
  return httpStatus === 401 || httpStatus === 403
    ? `Termii refused the API key (${why}): check TERMII_API_KEY`
    : `Termii refused the message (${why})`;
}
