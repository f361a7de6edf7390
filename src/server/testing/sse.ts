// Server tests of event streams: a real HTTP client of the server-sent events the page reads.

export type TSseEvent = { id: string | null; event: string; data: Record<string, unknown> };

/** Opens a stream at `base` + `url` and collects its events until `until` says enough (or 10 s pass). */
export async function collectSse(
  base: string,
  url: string,
  until: (events: TSseEvent[]) => boolean,
  headers: Record<string, string> = {},
  onOpen?: () => Promise<void>,
): Promise<{ status: number; events: TSseEvent[] }> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 10_000);
  const response = await fetch(`${base}${url}`, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const events: TSseEvent[] = [];
  if (response.status !== 200 || !response.body) {
    clearTimeout(timer);
    return { status: response.status, events };
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let opened = false;
  try {
    while (!until(events)) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const field = (name: string) =>
          block
            .split('\n')
            .find((line) => line.startsWith(`${name}:`))
            ?.slice(name.length + 1)
            .trim() ?? null;
        const data = field('data');
        if (data === null) continue;
        events.push({
          id: field('id'),
          event: field('event') ?? 'message',
          data: JSON.parse(data),
        });
        if (!opened && onOpen) {
          opened = true;
          await onOpen();
        }
      }
    }
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  return { status: response.status, events };
}

/** collectSse's arguments after the server's base URL. */
export type TCollectArgs =
  Parameters<typeof collectSse> extends [string, ...infer Rest] ? Rest : never;
