import { createHmac } from 'node:crypto';
import { signedNoticeSender, type TNoticeAttempt } from '../signed-notice-sender';

export type { TNoticeAttempt } from '../signed-notice-sender';

/**
 * Paystack signs the raw body it sends: x-paystack-signature is the hex HMAC-SHA512 of those exact
 * bytes keyed with the secret key (paystack.com/docs/payments/webhooks, "Verify event origin").
 */
export const signNotice = (body: string, secretKey: string) =>
  createHmac('sha512', secretKey).update(body).digest('hex');

/**
 * Sends notices to one URL, signed, and sends a notice again until it is answered 200 OK: Paystack
 * treats any other answer as a failed delivery and retries it, in test mode hourly for up to 72
 * hours (live: every 3 minutes for the first 4 tries, then hourly; paystack.com/docs/payments/
 * webhooks). The simulator keeps the shape, a few tries, with delays short enough for a test.
 */
export const noticeSender = (options: {
  url: string | null;
  secretKey: string;
  /** Waits before each redelivery; its length is the number of redeliveries. */
  retryDelaysMs: number[];
  record: (attempt: TNoticeAttempt) => void;
}) => {
  const sender = signedNoticeSender(options, {
    header: 'x-paystack-signature',
    sign: (body) => signNotice(body, options.secretKey),
  });
  return {
    ...sender,
    /** Resolves once the first attempt has been answered; redeliveries follow on their own. */
    send: (event: string, data: unknown) => sender.send(event, JSON.stringify({ event, data })),
  };
};
