// @module-tag postgres
// oya_provider_eliminations_total (docs/routing.md, docs/operations.md): each elimination counted
// once, by the process whose statement moved the provider's state, however many processes decide
// it at once (two health records on one database: on PostgreSQL two pools, as two processes
// have); and the app's /metrics shows it.
import { describe, expect, it } from 'vitest';
import { DEFAULT_ROUTING_SETTINGS } from '../../domain/provider-routing';
import type { TCallOutcome } from '../providers/routing/provider-health';
import { recordedHealth } from '../providers/routing/recorded-health';
import { promtoolProblems } from '../testing/promlint';
import { databaseOfTwoServers, startTestApp } from '../testing/test-app';
import { countEliminations } from './counted-health';
import { createMetrics } from './metrics';

const OPERATOR_TOKEN = 'eliminations-operator-token-0123456789abc';

const failed = (provider: string, bank?: string): TCallOutcome => ({
  capability: 'transfersIn',
  provider,
  health: 'failed',
  latencyMs: 30_000,
  noAnswer: true,
  ...(bank ? { bank } : {}),
});

describe('the elimination count across processes', () => {
  const servers = databaseOfTwoServers();
  let at = new Date('2026-11-29T14:00:00Z');
  const clock = { now: () => at };
  const settings = { ...DEFAULT_ROUTING_SETTINGS, failuresInARow: 3, coolDownSeconds: 30 };

  const processOn = (database: typeof servers.second) => {
    const health = recordedHealth({ db: database.db, clock, settings });
    const metrics = createMetrics({
      database,
      openStreams: () => null,
      jobBacklog: () => null,
      now: () => clock.now(),
    });
    countEliminations(health, metrics);
    return { health, metrics };
  };

  const counted = async (processes: { metrics: ReturnType<typeof createMetrics> }[]) => {
    const byLabels = new Map<string, number>();
    for (const { metrics } of processes) {
      for (const { labels, value } of (await metrics.providerEliminations.get()).values) {
        const key = `${labels.capability} ${labels.provider} ${labels.bank}`;
        byLabels.set(key, (byLabels.get(key) ?? 0) + value);
      }
    }
    return Object.fromEntries(byLabels);
  };

  it('counts one elimination once when both processes decide it at once', async () => {
    const processes = [processOn(servers.first), processOn(servers.second)];
    const [one, two] = processes as [(typeof processes)[number], (typeof processes)[number]];
    const either = (index: number) => (index % 2 === 0 ? one : two).health;
    // Both record failures at once: each of the later ones sees three or more in a row.
    await Promise.all(
      Array.from({ length: 8 }, (_, index) => either(index).record(failed('paystack'))),
    );
    expect(await counted(processes)).toEqual({ 'transfersIn paystack all': 1 });

    // Still eliminated: more failures in the cool-down count nothing more.
    await Promise.all(processes.map(({ health }) => health.record(failed('paystack'))));
    expect(await counted(processes)).toEqual({ 'transfersIn paystack all': 1 });

    // After the cool-down a probe fails: cooled down again, which is not a new elimination.
    at = new Date(at.getTime() + 30_000);
    await one.health.record(failed('paystack'));
    expect(await counted(processes)).toEqual({ 'transfersIn paystack all': 1 });

    // Re-admitted by an answer, then eliminated again: a second count.
    at = new Date(at.getTime() + 30_000);
    await two.health.record({ ...failed('paystack'), health: 'answered' });
    await Promise.all(
      Array.from({ length: 6 }, (_, index) => either(index).record(failed('paystack'))),
    );
    expect(await counted(processes)).toEqual({ 'transfersIn paystack all': 2 });
  });

  it('counts a bank’s own elimination under its bank', async () => {
    const processes = [processOn(servers.first), processOn(servers.second)];
    for (let index = 0; index < 3; index += 1) {
      await processes[index % 2]?.health.record(failed('monnify', '058'));
    }
    expect(await counted(processes)).toEqual({
      'transfersIn monnify all': 1,
      'transfersIn monnify 058': 1,
    });
  });
});

describe('GET /metrics', () => {
  it('shows the eliminations of the process that made them', async () => {
    const test = await startTestApp({
      operatorToken: OPERATOR_TOKEN,
      env: { ROUTING_FAILURES_IN_A_ROW: '2' },
    });
    try {
      const scrape = async () => {
        const response = await test.app.inject({
          method: 'GET',
          url: '/metrics',
          headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
        });
        expect(response.statusCode).toBe(200);
        return response.body;
      };
      const series =
        'oya_provider_eliminations_total{capability="transfersIn",provider="paystack",bank="all"}';
      expect(await scrape()).not.toContain(series);
      const { health } = test.app.appContext.providers;
      for (let index = 0; index < 2; index += 1) await health.record(failed('paystack'));
      const scraped = await scrape();
      expect(scraped).toContain(`${series} 1\n`);
      // The scrape with the count in it still passes Prometheus's linter.
      expect(promtoolProblems(scraped)).toEqual([]);
    } finally {
      await test.close();
    }
  });
});
