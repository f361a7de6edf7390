import { createHmac } from 'node:crypto';
import { signedNoticeSender, type TNoticeAttempt } from '../signed-notice-sender';

export type { TNoticeAttempt } from '../signed-notice-sender';

/**
 * Monnify signs each notice: `monnify-signature` is the hex HMAC-SHA512 of the request body,
 * keyed by the integration's client secret (developers.monnify.com, Webhooks: "Computing the
 * request validation hash").
 */
export const signMonnifyNotice = (body: string, clientSecret: string) =>
  createHmac('sha512', clientSecret).update(body).digest('hex');

/**
 * Sends `{ eventType, eventData }` to one URL, signed, and again after each delay until it is
 * answered 200 (Monnify retries a notice that is not acknowledged with 200).
 */
export const noticeSender = (options: {
  url: string | null;
  clientSecret: string;
  retryDelaysMs: number[];
  record: (attempt: TNoticeAttempt) => void;
}) => {
  const sender = signedNoticeSender(options, {
    header: 'monnify-signature',
    sign: (body) => signMonnifyNotice(body, options.clientSecret),
  });
  return {
    ...sender,
    send: (eventType: string, eventData: unknown) =>
      sender.send(eventType, JSON.stringify({ eventType, eventData })),
  };
};
