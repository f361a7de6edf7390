import { describe, expect, it } from 'vitest';
import { recoveredText, routeActions, routeBadges, routeHealthFacts } from './provider-routes-view';
import type { TRouteProvider } from './schemas/dashboard-routes';

const provider = (over: Partial<TRouteProvider> = {}): TRouteProvider => ({
  provider: 'paystack',
  health: { calls: 20, failures: 6, timeouts: 5, p95LatencyMs: 30_000 },
  eliminated: null,
  pinned: false,
  pausedSince: null,
  ...over,
});

describe('the Routes screen’s words for a provider', () => {
  it('says since when and why a provider is eliminated, on Lagos’s clock', () => {
    const eliminated = provider({
      eliminated: { since: '2026-11-28T13:02:00Z', reason: 'after 5 timeouts' },
    });
    expect(routeBadges(eliminated)).toEqual([
      { text: 'Eliminated since 28 Nov 2026, 2:02 pm, after 5 timeouts', tone: 'bad' },
    ]);
  });

  it('says a paused or pinned provider, and one taking new work', () => {
    expect(routeBadges(provider({ pausedSince: '2026-11-28T08:00:00Z' }))).toEqual([
      { text: 'Paused by you since 28 Nov 2026, 9:00 am', tone: 'paused' },
    ]);
    expect(routeBadges(provider({ pinned: true }))).toEqual([
      { text: 'Pinned: tried first', tone: 'pinned' },
    ]);
    expect(routeBadges(provider())).toEqual([{ text: 'Taking new work', tone: 'good' }]);
  });

  it('puts the last hour in words: answered share, timeouts, p95', () => {
    expect(routeHealthFacts(provider())).toEqual([
      '70% answered of 20 calls',
      '5 timeouts',
      'p95 30.0 s',
    ]);
    expect(
      routeHealthFacts(
        provider({ health: { calls: 1, failures: 0, timeouts: 0, p95LatencyMs: 240 } }),
      ),
    ).toEqual(['100% answered of 1 call', '0 timeouts', 'p95 240 ms']);
    expect(
      routeHealthFacts(
        provider({ health: { calls: 0, failures: 0, timeouts: 0, p95LatencyMs: null } }),
      ),
    ).toEqual(['No calls in the last hour']);
  });

  it('offers an owner the opposite of what is set', () => {
    expect(routeActions(provider(), 2).map((a) => [a.kind, a.label])).toEqual([
      ['pin', 'Pin paystack'],
      ['pause', 'Pause paystack'],
    ]);
    expect(routeActions(provider({ pinned: true }), 2).map((a) => [a.kind, a.label])).toEqual([
      ['clear', 'Unpin paystack'],
      ['pause', 'Pause paystack'],
    ]);
    expect(
      routeActions(provider({ pausedSince: '2026-11-28T08:00:00Z' }), 3).map((a) => [
        a.kind,
        a.label,
      ]),
    ).toEqual([
      ['pin', 'Pin paystack'],
      ['clear', 'Resume paystack'],
    ]);
  });

  it("offers nothing for a list's only provider", () => {
    expect(routeActions(provider(), 1)).toEqual([]);
  });

  it('counts recovered payments and naira', () => {
    expect(recoveredText({ payments: 1, amount: 250_000 })).toBe('1 payment · ₦2,500.00');
  });
});
