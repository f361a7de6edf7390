// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ROUTING_SETTINGS } from '../../../domain/provider-routing';
import type { TDatabase } from '../../db/database';
import { openTestDatabase } from '../../testing/test-app';
import type { TCallOutcome } from './provider-health';
import { recordedHealth } from './recorded-health';

// The record is the database's: two health objects on one database stand for two processes.

let database: TDatabase;
let at = new Date('2026-11-29T14:00:00Z');
const clock = { now: () => at };
const later = (ms: number) => (at = new Date(at.getTime() + ms));
const settings = { ...DEFAULT_ROUTING_SETTINGS, failuresInARow: 3, coolDownSeconds: 30 };
const moves: string[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const processes = () => {
  const make = () =>
    recordedHealth({
      db: database.db,
      clock,
      settings,
      onMove: (scope, move) => moves.push(`${scope.provider} ${move.move}`),
    });
  return [make(), make()] as const;
};

const call = (
  provider: string,
  health: TCallOutcome['health'],
  extra: Partial<TCallOutcome> = {},
): TCallOutcome => ({
  capability: 'transfersIn',
  provider,
  health,
  latencyMs: 40,
  noAnswer: health === 'failed',
  ...extra,
});

const scope = { capability: 'transfersIn' } as const;
const LIST = ['paystack', 'monnify'];

describe('recorded health', () => {
  it('eliminates a provider for every process after N failures in a row, then probes it once', async () => {
    const [one, two] = processes();
    await one.record(call('paystack', 'failed'));
    await two.record(call('paystack', 'failed'));
    expect((await one.route(scope, LIST)).order).toEqual(LIST);
    await one.record(call('paystack', 'failed'));
    const eliminated = await two.route(scope, LIST);
    expect(eliminated.order).toEqual(['monnify', 'paystack']);
    expect(eliminated.passedOver).toEqual([
      { provider: 'paystack', why: 'eliminated', since: at, reason: 'after 3 failures in a row' },
    ]);
    expect(moves).toEqual(['paystack eliminate']);

    later(30_000);
    // One piece of new work probes it; the next is sent elsewhere until the probe's outcome.
    expect((await one.route(scope, LIST)).order).toEqual(LIST);
    expect((await two.route(scope, LIST)).order).toEqual(['monnify', 'paystack']);
    await two.record(call('paystack', 'failed'));
    expect(moves).toEqual(['paystack eliminate', 'paystack cool_down_again']);
    expect((await one.route(scope, LIST)).order).toEqual(['monnify', 'paystack']);

    later(30_000);
    expect((await two.route(scope, LIST)).order).toEqual(LIST);
    await one.record(call('paystack', 'answered'));
    expect(moves.at(-1)).toBe('paystack readmit');
    expect(await one.route(scope, LIST)).toEqual({ order: LIST, passedOver: [] });
  });

  it('counts a decline or a refusal as an answer, never against the provider', async () => {
    const [one] = processes();
    for (let index = 0; index < 6; index += 1) {
      await one.record(call('monnify', index % 2 === 0 ? 'failed' : 'answered'));
    }
    expect((await one.route(scope, ['monnify', 'paystack'])).order).toEqual([
      'monnify',
      'paystack',
    ]);
  });

  it('eliminates on the failure rate of the window once it holds enough calls', async () => {
    const [one] = processes();
    const payouts = { capability: 'payouts' } as const;
    const outcome = (health: TCallOutcome['health']) => call('sandbox', health, payouts);
    // Never three failures in a row: two of every three calls fail.
    for (let index = 0; index < 9; index += 1) {
      await one.record(outcome(index % 3 === 2 ? 'answered' : 'failed'));
    }
    expect((await one.route(payouts, ['sandbox', 'paystack'])).order[0]).toBe('sandbox');
    await one.record(outcome('failed'));
    const route = await one.route(payouts, ['sandbox', 'paystack']);
    expect(route.order).toEqual(['paystack', 'sandbox']);
    expect(route.passedOver[0]?.reason).toBe('7 of 10 calls failed in 60 s');
  });

  it('eliminates a provider for one bank alone where the outcomes name the bank', async () => {
    const [one] = processes();
    const mandates = { capability: 'mandates', bank: '058' } as const;
    for (let index = 0; index < 3; index += 1) {
      await one.record(call('remita', 'failed', mandates));
      await one.record(call('remita', 'answered', { capability: 'mandates', bank: '044' }));
    }
    expect((await one.route(mandates, ['remita', 'sandbox'])).order).toEqual(['sandbox', 'remita']);
    const otherBank = { capability: 'mandates', bank: '044' } as const;
    expect((await one.route(otherBank, ['remita', 'sandbox'])).order).toEqual([
      'remita',
      'sandbox',
    ]);
  });

  it('reports the last hour of each provider: calls, failures, timeouts, p95, elimination', async () => {
    const [one] = processes();
    const snapshot = await one.snapshot();
    const paystack = snapshot.find(
      (line) => line.capability === 'transfersIn' && line.provider === 'paystack',
    );
    expect(paystack).toEqual({
      capability: 'transfersIn',
      provider: 'paystack',
      calls: 5,
      failures: 4,
      timeouts: 4,
      p95LatencyMs: 50,
      eliminated: null,
    });
    later(2 * 3_600_000);
    expect((await one.snapshot()).find((line) => line.provider === 'paystack')?.calls ?? 0).toBe(0);
  });
});
