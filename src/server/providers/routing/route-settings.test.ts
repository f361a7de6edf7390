// A merchant's pin and pauses over the recorded health (route-settings.ts): what `route()`
// answers each merchant's new work, read from the route_settings row on a real database
// (PGlite; PostgreSQL with DATABASE_URL) or as its caller read them, the health a test's own that
// eliminates a provider.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDatabase } from '../../db/database';
import { routeSettings } from '../../db/schema';
import { createMerchantClient } from '../../services/merchants/merchant-clients';
import { eliminatingHealth } from '../../testing/provider-health';
import { openTestDatabase } from '../../testing/test-app';
import { listOrder, type TRoute } from './provider-health';
import { applyRouteSettings, PAUSED_REASON, withRouteSettings } from './route-settings';

const CARDS = ['paystack', 'monnify', 'sandbox'] as const;
const PAUSED_AT = '2026-11-28T09:15:00.000Z';
const ELIMINATED_AT = new Date('2026-11-28T10:02:00Z');

let database: TDatabase;
let merchantId: string;
let otherMerchantId: string;

beforeAll(async () => {
  database = await openTestDatabase();
  merchantId = (await createMerchantClient(database.db, { name: 'Kemi Fabrics' })).merchantId;
  otherMerchantId = (await createMerchantClient(database.db, { name: 'Tola Stores' })).merchantId;
});
afterAll(async () => {
  await database?.close();
});

/** The merchant's settings for cards, as the dashboard's changes leave the row. */
async function setCards(
  merchant: string,
  settings: { pinned?: string | null; paused?: Record<string, string> },
) {
  const values = { pinned: settings.pinned ?? null, paused: settings.paused ?? {} };
  await database.db
    .insert(routeSettings)
    .values({ merchantId: merchant, capability: 'cards', ...values })
    .onConflictDoUpdate({
      target: [routeSettings.merchantId, routeSettings.capability],
      set: values,
    });
}

const paystackDown = eliminatingHealth({
  capability: 'cards',
  provider: 'paystack',
  since: ELIMINATED_AT,
  reason: 'after 5 timeouts',
  lines: [],
});

describe('withRouteSettings', () => {
  it("answers health's own order where the merchant set nothing", async () => {
    const health = withRouteSettings(paystackDown, database.db);
    const route = await health.route({ capability: 'cards', merchantId: otherMerchantId }, CARDS);
    expect(route).toEqual(await paystackDown.route({ capability: 'cards' }, CARDS));
  });

  it('sends the merchant’s new work to its pinned provider first', async () => {
    await setCards(merchantId, { pinned: 'sandbox' });
    const health = withRouteSettings(listOrder, database.db);
    const route = await health.route({ capability: 'cards', merchantId }, CARDS);
    expect(route).toEqual({ order: ['sandbox', 'paystack', 'monnify'], passedOver: [] });
  });

  it('leaves a paused provider out and says so, since when', async () => {
    await setCards(merchantId, { paused: { monnify: PAUSED_AT } });
    const health = withRouteSettings(listOrder, database.db);
    const route = await health.route({ capability: 'cards', merchantId }, CARDS);
    expect(route.order).toEqual(['paystack', 'sandbox']);
    expect(route.passedOver).toEqual([
      { provider: 'monnify', why: 'paused', since: new Date(PAUSED_AT), reason: PAUSED_REASON },
    ]);
  });

  it('applies one merchant’s settings to its own work only, and to none without a merchant', async () => {
    await setCards(merchantId, { pinned: 'monnify', paused: { sandbox: PAUSED_AT } });
    const health = withRouteSettings(listOrder, database.db);
    expect((await health.route({ capability: 'cards', merchantId }, CARDS)).order).toEqual([
      'monnify',
      'paystack',
    ]);
    for (const scope of [
      { capability: 'cards' as const },
      { capability: 'cards' as const, merchantId: otherMerchantId },
    ]) {
      expect((await health.route(scope, CARDS)).order).toEqual([...CARDS]);
    }
    // Another capability of the same merchant keeps its own (no) settings.
    expect((await health.route({ capability: 'payouts', merchantId }, CARDS)).order).toEqual([
      ...CARDS,
    ]);
  });

  it('never sends a pin to a provider its record eliminated', async () => {
    await setCards(merchantId, { pinned: 'paystack' });
    const health = withRouteSettings(paystackDown, database.db);
    const route = await health.route({ capability: 'cards', merchantId }, CARDS);
    expect(route.order).toEqual(['monnify', 'sandbox', 'paystack']);
    expect(route.passedOver.map((over) => over.why)).toEqual(['eliminated']);
  });

  it('applies the settings the caller read already, as they are, over health', async () => {
    await setCards(merchantId, { pinned: 'monnify' });
    const health = withRouteSettings(paystackDown, database.db);
    const read = { pinned: 'sandbox', paused: { monnify: PAUSED_AT } };
    const route = await health.route({ capability: 'cards', merchantId, settings: read }, CARDS);
    expect(route.order).toEqual(['sandbox', 'paystack']);
    expect(route.passedOver.map((over) => [over.provider, over.why])).toEqual([
      ['paystack', 'eliminated'],
      ['monnify', 'paused'],
    ]);
    // Read as none: health's own order, whatever the row says now.
    const none = await health.route({ capability: 'cards', merchantId, settings: null }, CARDS);
    expect(none).toEqual(await paystackDown.route({ capability: 'cards' }, CARDS));
  });

  it('passes records and the snapshot through to the health under it', async () => {
    const health = withRouteSettings(paystackDown, database.db);
    const before = paystackDown.recorded;
    await health.record({
      capability: 'cards',
      provider: 'paystack',
      health: 'failed',
      latencyMs: 1,
    });
    expect(paystackDown.recorded).toBe(before + 1);
    expect(await health.snapshot()).toEqual([]);
  });
});

describe('applyRouteSettings', () => {
  const route: TRoute = { order: ['paystack', 'monnify'], passedOver: [] };

  it('never leaves the order empty: with every listed provider paused, no pause applies', () => {
    const settings = { pinned: null, paused: { paystack: PAUSED_AT, monnify: PAUSED_AT } };
    expect(applyRouteSettings(route, settings)).toEqual(route);
  });

  it('ignores a pin or a pause of a provider the list no longer names', () => {
    const settings = { pinned: 'remita', paused: { sandbox: PAUSED_AT } };
    expect(applyRouteSettings(route, settings)).toEqual(route);
  });

  it('keeps an eliminated provider paused by the merchant out, named for both', () => {
    const eliminated: TRoute = {
      order: ['monnify', 'paystack'],
      passedOver: [
        {
          provider: 'paystack',
          why: 'eliminated',
          since: ELIMINATED_AT,
          reason: 'after 5 timeouts',
        },
      ],
    };
    const applied = applyRouteSettings(eliminated, {
      pinned: null,
      paused: { paystack: PAUSED_AT },
    });
    expect(applied.order).toEqual(['monnify']);
    expect(applied.passedOver.map((over) => over.why)).toEqual(['eliminated', 'paused']);
  });
});
