// @module-tag postgres
// The recorded health's minutes are kept only as long as something reads them (docs/routing.md):
// the periodic 'routing.prune-health' job deletes those older than the snapshot's hour (the
// failure rate's window is at most as long), and leaves every minute still read. On PGlite and
// on PostgreSQL.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { providerHealthMinutes } from '../../db/schema';
import { useTestApp, testClock } from '../../testing/test-app';
import type { TCallOutcome } from './provider-health';

const clock = testClock('2026-11-29T10:00:30Z');

const test = useTestApp({ clock });

const outcome = (provider: string): TCallOutcome => ({
  capability: 'payouts',
  provider,
  bank: '058',
  health: 'answered',
  latencyMs: 120,
});

const minutesKept = async () =>
  (
    await test.database.db
      .select({ provider: providerHealthMinutes.provider, minute: providerHealthMinutes.minute })
      .from(providerHealthMinutes)
      .where(sql`${providerHealthMinutes.bank} = ''`)
      .orderBy(providerHealthMinutes.minute)
  ).map((row) => `${row.provider} ${row.minute.toISOString().slice(11, 16)}`);

describe('pruning the recorded health', () => {
  it('deletes the minutes nothing reads any more, on its periodic job', async () => {
    const { health } = test.app.appContext.providers;
    const start = clock.now().getTime();
    const at = (minutes: number) => clock.advance(start + minutes * 60_000 - clock.now().getTime());
    // One call at each of these minutes, for the provider as a whole and for the bank.
    for (const minutes of [0, 58, 60, 90]) {
      at(minutes);
      await health.record(outcome('paystack'));
    }
    expect(await minutesKept()).toEqual([
      'paystack 10:00',
      'paystack 10:58',
      'paystack 11:00',
      'paystack 11:30',
    ]);
    // At 11:30:30 the snapshot reads from 10:30:30: 10:00 goes (a minute's margin kept), for
    // the provider as a whole and for the bank.
    expect(await test.app.jobs.runNow('routing.prune-health')).toEqual({ deleted: 2 });
    expect(await minutesKept()).toEqual(['paystack 10:58', 'paystack 11:00', 'paystack 11:30']);

    // At 12:00:30 it reads from 11:00:30: the minutes before 10:59:30 go.
    at(120);
    expect(await test.app.jobs.runNow('routing.prune-health')).toEqual({ deleted: 2 });
    expect(await minutesKept()).toEqual(['paystack 11:00', 'paystack 11:30']);
    expect(await test.app.jobs.runNow('routing.prune-health')).toEqual({ deleted: 0 });

    at(151);
    await health.record(outcome('monnify'));
    expect(await test.app.jobs.runNow('routing.prune-health')).toEqual({ deleted: 4 });
    expect(await minutesKept()).toEqual(['monnify 12:31']);
    // The snapshot still reads its hour.
    const lines = await health.snapshot();
    expect(lines.find((line) => line.provider === 'monnify')).toMatchObject({ calls: 1 });
  });
});
