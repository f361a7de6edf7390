import type { TSmsSender } from './sms';

export type TRecordedSms = { to: string; body: string };

/**
 * An in-memory SMS adapter for tests: it keeps what it was given to send, in order, so a test
 * can read a code without a database outbox, or check that nothing was sent. Never chosen by
 * configuration.
 */
export function recordingSmsSender(): TSmsSender & { readonly sent: readonly TRecordedSms[] } {
  const sent: TRecordedSms[] = [];
  return {
    sent,
    send(phoneNumber, body) {
      sent.push({ to: phoneNumber, body });
      return Promise.resolve();
    },
  };
}
