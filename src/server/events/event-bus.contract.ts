// The contract of the EventBus port: every adapter (in-process, and the database's NOTIFY/LISTEN)
// passes this suite, run by the adapter's own *.test.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TEvent, TEventBus, TEventErrorHandler, TEventType } from './event-bus';

export type TEventBusUnderTest = {
  bus: TEventBus;
  /** Releases what the adapter needed besides the bus (a database); the suite closes the bus. */
  release?: () => Promise<void>;
};

/** How long an adapter may take to deliver, and how long a test waits to see nothing arrive. */
const DELIVERY_MS = 2_000;
const QUIET_MS = 100;

const created = (n: number) => ({
  consentId: `cns_${n}`,
  clientId: 'cli_contract',
  merchantId: 'mer_contract',
});

/** The next `count` events of `type` the bus delivers to one subscriber. */
function collect<K extends TEventType>(bus: TEventBus, type: K, count: number) {
  const events: TEvent<K>[] = [];
  let done: () => void = () => {};
  const all = new Promise<void>((resolve) => (done = resolve));
  const unsubscribe = bus.subscribe(type, (event) => {
    events.push(event);
    if (events.length === count) done();
  });
  const arrived = async () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${events.length} of ${count} events arrived`)),
        DELIVERY_MS,
      );
    });
    try {
      await Promise.race([all, timeout]);
    } finally {
      clearTimeout(timer);
    }
    return events;
  };
  return { events, arrived, unsubscribe };
}

const quiet = () => new Promise((resolve) => setTimeout(resolve, QUIET_MS));

export function eventBusContract(
  adapter: string,
  make: (options: { onError: TEventErrorHandler }) => Promise<TEventBusUnderTest>,
): void {
  describe(`EventBus contract: ${adapter}`, () => {
    let underTest: TEventBusUnderTest;
    let bus: TEventBus;
    let failures: Array<{ error: unknown; event: TEvent }>;

    beforeEach(async () => {
      failures = [];
      underTest = await make({ onError: (error, event) => failures.push({ error, event }) });
      bus = underTest.bus;
    });
    afterEach(async () => {
      await bus.close();
      await underTest.release?.();
    });

    it('delivers a published event to every subscriber of its type, with its type, data and id', async () => {
      const first = collect(bus, 'consent.created', 1);
      const second = collect(bus, 'consent.created', 1);
      const sent = await bus.publish({ type: 'consent.created', data: created(1) });
      expect(sent).toEqual({ type: 'consent.created', data: created(1), id: expect.any(String) });
      expect(await first.arrived()).toEqual([sent]);
      expect(await second.arrived()).toEqual([sent]);
    });

    it('keeps the id the publisher gives, and makes a distinct one otherwise', async () => {
      const seen = collect(bus, 'consent.created', 3);
      const given = await bus.publish({ type: 'consent.created', data: created(1), id: 'evt_42' });
      const made = [
        await bus.publish({ type: 'consent.created', data: created(2) }),
        await bus.publish({ type: 'consent.created', data: created(3) }),
      ];
      expect(given.id).toBe('evt_42');
      expect(made[0]?.id).not.toBe(made[1]?.id);
      expect((await seen.arrived()).map((e) => e.id)).toEqual(['evt_42', made[0]?.id, made[1]?.id]);
    });

    it('delivers events in the order they were published', async () => {
      const seen = collect(bus, 'consent.created', 20);
      for (let n = 0; n < 20; n += 1) {
        await bus.publish({ type: 'consent.created', data: created(n) });
      }
      const ids = (await seen.arrived()).map((e) => e.data.consentId);
      expect(ids).toEqual(Array.from({ length: 20 }, (_, n) => `cns_${n}`));
    });

    it('never runs a subscriber inside the publisher’s call', async () => {
      let ran = false;
      const seen = collect(bus, 'consent.created', 1);
      bus.subscribe('consent.created', () => {
        ran = true;
      });
      const publishing = bus.publish({ type: 'consent.created', data: created(1) });
      expect(ran).toBe(false);
      await publishing;
      await seen.arrived();
    });

    it('hands each subscriber its own copy of the data, as JSON', async () => {
      const data = created(1);
      const mutator = collect(bus, 'consent.created', 1);
      const reader = collect(bus, 'consent.created', 1);
      bus.subscribe('consent.created', (event) => {
        event.data.consentId = 'changed by a subscriber';
      });
      await bus.publish({ type: 'consent.created', data });
      data.consentId = 'changed by the publisher';
      await mutator.arrived();
      const [read] = await reader.arrived();
      expect(read?.data).toEqual(created(1));
    });

    it('stops delivering to a subscriber once it unsubscribed; unsubscribing twice is harmless', async () => {
      const gone = collect(bus, 'consent.created', 1);
      const staying = collect(bus, 'consent.created', 2);
      await bus.publish({ type: 'consent.created', data: created(1) });
      await gone.arrived();
      gone.unsubscribe();
      gone.unsubscribe();
      await bus.publish({ type: 'consent.created', data: created(2) });
      await staying.arrived();
      await quiet();
      expect(gone.events.map((e) => e.data.consentId)).toEqual(['cns_1']);
    });

    it('keeps delivering to the others when a subscriber throws or rejects, and tells onError', async () => {
      bus.subscribe('consent.created', () => {
        throw new Error('subscriber threw');
      });
      bus.subscribe('consent.created', () => Promise.reject(new Error('subscriber rejected')));
      const healthy = collect(bus, 'consent.created', 2);
      const first = await bus.publish({ type: 'consent.created', data: created(1) });
      await bus.publish({ type: 'consent.created', data: created(2) });
      expect(await healthy.arrived()).toHaveLength(2);
      await quiet();
      expect(failures.map((f) => (f.error as Error).message).sort()).toEqual([
        'subscriber rejected',
        'subscriber rejected',
        'subscriber threw',
        'subscriber threw',
      ]);
      expect(failures.map((f) => f.event.id)).toContain(first.id);
    });

    it('delivers nothing after close, and refuses to publish', async () => {
      const seen = collect(bus, 'consent.created', 1);
      await bus.close();
      await expect(bus.publish({ type: 'consent.created', data: created(1) })).rejects.toThrow();
      await quiet();
      expect(seen.events).toEqual([]);
    });
  });
}
