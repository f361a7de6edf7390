import { createHmac } from 'node:crypto';

/** One delivery attempt of a notice: a redelivery is a new entry with the same body and signature. */
export type TNoticeAttempt = {
  event: string;
  body: string;
  signature: string;
  /** Our server's answer, or null when it gave none (refused, reset, timed out). */
  status: number | null;
};

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
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  let closed = false;

  const attempt = async (event: string, body: string, signature: string) => {
    const status = await fetch(options.url as string, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paystack-signature': signature },
      body,
      signal: AbortSignal.timeout(30_000),
    }).then(
      async (answer) => {
        await answer.arrayBuffer();
        return answer.status;
      },
      () => null,
    );
    options.record({ event, body, signature, status });
    return status === 200;
  };

  const track = (work: Promise<void>) => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
    return work;
  };

  /** Resolves once the first attempt has been answered; redeliveries follow on their own. */
  const send = (event: string, data: unknown): Promise<void> => {
    if (options.url === null || closed) return Promise.resolve();
    const body = JSON.stringify({ event, data });
    const signature = signNotice(body, options.secretKey);
    const retry = (index: number) => {
      const delay = options.retryDelaysMs[index];
      if (delay === undefined || closed) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (closed) return;
        void track(
          attempt(event, body, signature).then((delivered) => {
            if (!delivered) retry(index + 1);
          }),
        );
      }, delay);
      timers.add(timer);
    };
    return track(
      attempt(event, body, signature).then((delivered) => {
        if (!delivered) retry(0);
      }),
    );
  };

  return {
    send,
    /** Resolves when no attempt is under way and none is waiting. */
    async idle() {
      while (inFlight.size > 0 || timers.size > 0) {
        if (inFlight.size > 0) await Promise.allSettled([...inFlight]);
        else await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...inFlight]);
    },
  };
};
