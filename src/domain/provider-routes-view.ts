import type { TCapability } from './capabilities';
import { DASHBOARD_TEXTS } from './dashboard-texts';
import { formatNaira } from './money';
import { formatLagosDateTime } from './payment-date';
import { countNoun } from './plural';
import type { TRouteProvider } from './schemas/dashboard-routes';

/*
 * What the dashboard's Routes screen says of each provider (docs/dashboard.md "Routes"): its
 * state for the merchant's new work, its last hour in plain words, and which of pin, pause and
 * clear an owner is offered. The screen draws these; it decides nothing itself.
 */

export const ROUTES_TEXTS = {
  title: DASHBOARD_TEXTS.nav.routes,
  lead: 'New work of each kind goes to the first provider of its list that takes it. A provider that stops answering is eliminated for a while and its work goes to the next; a refund or a check on a payment always goes to the provider that took the money.',
  recoveredTitle: 'Recovered by failover',
  recoveredHint:
    'Payments completed on a second provider after the first failed to answer: money a single provider would have lost.',
  today: 'Today',
  thisMonth: 'This month',
  nextGoesTo: (provider: string) => `New work goes first to ${provider}.`,
  noneTakes: 'No provider takes new work.',
  pin: (provider: string) => `Pin ${provider}`,
  pause: (provider: string) => `Pause ${provider}`,
  clear: (provider: string) => `Resume ${provider}`,
  unpin: (provider: string) => `Unpin ${provider}`,
  changed: 'Saved. New work follows it from now.',
  lastHour: 'Last hour',
};

/** How the screen names each capability it lists. */
export const ROUTE_CAPABILITY_TITLES: Record<TCapability, string> = {
  cards: 'Card payments',
  banks: 'Bank account linking',
  bvn: 'BVN look-ups',
  mandates: 'New mandates',
  debits: 'Direct debits',
  payouts: 'Payouts',
  refunds: 'Refunds',
  transfersIn: 'Pay by transfer',
  notices: 'Notices',
  acquirer: 'Card terminals',
  settlement: 'Settlement reports',
  sms: 'SMS',
};

/** A provider's state for new work: what its badge says, and its tone. */
export type TRouteBadge = { text: string; tone: 'bad' | 'paused' | 'pinned' | 'good' };

/** The badges of one provider, the most telling first. */
export function routeBadges(provider: TRouteProvider): TRouteBadge[] {
  const badges: TRouteBadge[] = [];
  if (provider.eliminated) {
    badges.push({
      text: `Eliminated since ${formatLagosDateTime(provider.eliminated.since)}, ${provider.eliminated.reason}`,
      tone: 'bad',
    });
  }
  if (provider.pausedSince) {
    badges.push({
      text: `Paused by you since ${formatLagosDateTime(provider.pausedSince)}`,
      tone: 'paused',
    });
  }
  if (provider.pinned) badges.push({ text: 'Pinned: tried first', tone: 'pinned' });
  if (badges.length === 0) badges.push({ text: 'Taking new work', tone: 'good' });
  return badges;
}

/** The provider's last hour in words: answered share, timeouts, p95. */
export function routeHealthFacts(provider: TRouteProvider): string[] {
  const { calls, failures, timeouts, p95LatencyMs } = provider.health;
  if (calls === 0) return ['No calls in the last hour'];
  const answered = Math.round(((calls - failures) / calls) * 100);
  return [
    `${answered}% answered of ${countNoun(calls, 'call')}`,
    countNoun(timeouts, 'timeout'),
    p95LatencyMs === null ? 'p95 —' : `p95 ${formatLatency(p95LatencyMs)}`,
  ];
}

const formatLatency = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

/**
 * What an owner may do to a provider: pin (or unpin), pause (or resume); nothing where it is
 * its list's only provider, which neither goes before another nor may be paused.
 */
export function routeActions(
  provider: TRouteProvider,
  listLength: number,
): Array<{ kind: 'pin' | 'pause' | 'clear'; label: string }> {
  const name = provider.provider;
  if (listLength < 2) return [];
  return [
    provider.pinned
      ? { kind: 'clear' as const, label: ROUTES_TEXTS.unpin(name) }
      : { kind: 'pin' as const, label: ROUTES_TEXTS.pin(name) },
    provider.pausedSince
      ? { kind: 'clear' as const, label: ROUTES_TEXTS.clear(name) }
      : { kind: 'pause' as const, label: ROUTES_TEXTS.pause(name) },
  ];
}

/** '2 payments · ₦3,400.00'. */
export const recoveredText = (total: { payments: number; amount: number }) =>
  `${countNoun(total.payments, 'payment')} · ${formatNaira(total.amount)}`;
