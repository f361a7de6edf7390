import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ROUTING_SETTINGS as SETTINGS,
  healthMove,
  latencyBucket,
  p95OfHistogram,
  routeNoteOf,
  routeOrder,
  routeStanding,
  type TRouteStanding,
} from './provider-routing';

const now = new Date('2026-11-29T14:02:00Z');
const admitted = (failuresInARow: number) => ({ failuresInARow, eliminated: null });
const eliminatedUntil = (until: Date) => ({
  failuresInARow: 5,
  eliminated: { since: new Date(until.getTime() - 30_000), until, reason: 'after 5 failures' },
});
const quiet = { calls: 0, failures: 0 };

describe('healthMove', () => {
  it('eliminates a provider for the cool-down after N technical failures in a row', () => {
    expect(healthMove(admitted(5), true, quiet, SETTINGS, now)).toEqual({
      move: 'eliminate',
      until: new Date(now.getTime() + 30_000),
      reason: 'after 5 failures in a row',
    });
  });

  it('keeps a provider with fewer failures in a row and a rate under the threshold', () => {
    expect(healthMove(admitted(4), true, { calls: 20, failures: 9 }, SETTINGS, now)).toEqual({
      move: 'none',
    });
  });

  it('eliminates on a failure rate over the threshold once the window holds enough calls', () => {
    expect(healthMove(admitted(1), true, { calls: 10, failures: 5 }, SETTINGS, now)).toMatchObject({
      move: 'eliminate',
      reason: '5 of 10 calls failed in 60 s',
    });
    expect(healthMove(admitted(1), true, { calls: 9, failures: 8 }, SETTINGS, now)).toEqual({
      move: 'none',
    });
  });

  it('never eliminates on an answer, whatever the window says', () => {
    expect(healthMove(admitted(0), false, { calls: 10, failures: 9 }, SETTINGS, now)).toEqual({
      move: 'none',
    });
  });

  it('leaves an eliminated provider alone during its cool-down', () => {
    const standing = eliminatedUntil(new Date(now.getTime() + 1));
    expect(healthMove(standing, false, quiet, SETTINGS, now)).toEqual({ move: 'none' });
    expect(healthMove(standing, true, quiet, SETTINGS, now)).toEqual({ move: 'none' });
  });

  it('re-admits on an answer after the cool-down, and cools down again on a failure', () => {
    const standing = eliminatedUntil(now);
    expect(healthMove(standing, false, quiet, SETTINGS, now)).toEqual({ move: 'readmit' });
    expect(healthMove(standing, true, quiet, SETTINGS, now)).toEqual({
      move: 'cool_down_again',
      until: new Date(now.getTime() + 30_000),
    });
  });
});

describe('routeStanding', () => {
  const eliminated = { since: new Date(now.getTime() - 10_000), until: now, reason: 'after 5' };

  it('takes new work while not eliminated', () => {
    expect(routeStanding(null, null, SETTINGS, now)).toEqual({ take: 'yes' });
  });

  it('passes over an eliminated provider until its cool-down ends', () => {
    const early = new Date(now.getTime() - 1);
    expect(routeStanding(eliminated, null, SETTINGS, early)).toEqual({
      take: 'last',
      since: eliminated.since,
      reason: 'after 5',
    });
  });

  it('lets one probe through after the cool-down, and another only a cool-down later', () => {
    expect(routeStanding(eliminated, null, SETTINGS, now)).toEqual({ take: 'probe' });
    expect(routeStanding(eliminated, now, SETTINGS, now).take).toBe('last');
    const later = new Date(now.getTime() + 30_000);
    expect(routeStanding(eliminated, now, SETTINGS, later)).toEqual({ take: 'probe' });
  });
});

describe('routeOrder', () => {
  it('puts passed-over providers last, each group in list order', () => {
    const last: TRouteStanding = { take: 'last', since: now, reason: 'r' };
    const standings = new Map<string, TRouteStanding>([
      ['paystack', last],
      ['monnify', { take: 'yes' }],
      ['sandbox', { take: 'probe' }],
    ]);
    expect(routeOrder(['paystack', 'monnify', 'sandbox'], standings)).toEqual({
      order: ['monnify', 'sandbox', 'paystack'],
      passedOver: ['paystack'],
    });
  });

  it('keeps the list order when nobody is passed over', () => {
    expect(routeOrder(['a', 'b'], new Map())).toEqual({ order: ['a', 'b'], passedOver: [] });
  });
});

describe('latency histogram', () => {
  it('puts a latency in the first bucket whose bound holds it', () => {
    expect(latencyBucket(0)).toBe(0);
    expect(latencyBucket(25)).toBe(0);
    expect(latencyBucket(26)).toBe(1);
    expect(latencyBucket(60_000)).toBe(10);
  });

  it('reads the 95th percentile as the bound of the bucket that reaches it', () => {
    const histogram = Array.from({ length: 11 }, () => 0);
    histogram[latencyBucket(40)] = 94;
    histogram[latencyBucket(900)] = 6;
    expect(p95OfHistogram(histogram)).toBe(1000);
    histogram[latencyBucket(40)] = 95;
    histogram[latencyBucket(900)] = 5;
    expect(p95OfHistogram(histogram)).toBe(50);
    expect(p95OfHistogram(histogram.map(() => 0))).toBeNull();
  });
});

describe('routeNoteOf', () => {
  it('says where the work went and why the others were not asked', () => {
    const since = new Date('2026-11-29T14:02:30Z');
    expect(
      routeNoteOf('monnify', [
        { provider: 'paystack', since, reason: 'after 5 failures in a row' },
      ]),
    ).toBe('Sent to Monnify: Paystack eliminated at 14:02 after 5 failures in a row');
    expect(routeNoteOf('monnify', [], [{ provider: 'paystack', reason: 'gave no answer' }])).toBe(
      'Sent to Monnify: Paystack gave no answer',
    );
    expect(routeNoteOf('paystack', [])).toBeNull();
  });
});
