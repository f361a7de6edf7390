/** One delivery attempt of a notice: a redelivery is a new entry with the same body and signature. */
export type TNoticeAttempt = {
  event: string;
  body: string;
  signature: string;
  /** Our server's answer, or null when it gave none (refused, reset, timed out). */
  status: number | null;
};

/**
 * What a provider's simulator shares to send its notices: to one URL, signed in the provider's
 * header, and again after each delay until answered 200 OK (the providers retry a notice that is
 * not acknowledged; each simulator keeps the shape, with delays short enough for a test).
 */
export const signedNoticeSender = (
  /** Read at each notice: a simulator may point `url` elsewhere after it started. */
  options: {
    url: string | null;
    retryDelaysMs: number[];
    record: (attempt: TNoticeAttempt) => void;
  },
  signing: {
    /** The header the provider signs in, e.g. 'x-paystack-signature'. */
    header: string;
    sign: (body: string) => string;
  },
) => {
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  let closed = false;

  const attempt = async (event: string, body: string, signature: string) => {
    const status = await fetch(options.url as string, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [signing.header]: signature },
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

  /** Sends `body` (the notice, already written) once now; redeliveries follow on their own. */
  const send = (event: string, body: string): Promise<void> => {
    if (options.url === null || closed) return Promise.resolve();
    const signature = signing.sign(body);
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
