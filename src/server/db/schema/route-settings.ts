/*
 * A merchant's pin and pauses of a capability's providers (docs/routing.md, migration 0065): one
 * row per merchant and capability, changed by one conditional UPDATE each
 * (services/dashboard/routes.ts) and applied to new work by providers/routing/route-settings.ts.
 */
import { sql } from 'drizzle-orm';
import { check, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { TCapability } from '../../../domain/capabilities';
import { merchants } from './consents';

export const routeSettings = pgTable(
  'route_settings',
  {
    merchantId: text('merchant_id')
      .notNull()
      .references(() => merchants.id),
    capability: text('capability').$type<TCapability>().notNull(),
    /** The provider new work tries first, or null. */
    pinned: text('pinned'),
    pinnedAt: timestamp('pinned_at', { withTimezone: true }),
    /** Providers left out of new work, each with since when (an ISO time). */
    paused: jsonb('paused').$type<Record<string, string>>().notNull().default({}),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'route_settings_pk', columns: [t.merchantId, t.capability] }),
    check(
      'route_settings_pinned_not_paused',
      sql`pinned IS NULL OR NOT jsonb_exists(paused, pinned)`,
    ),
  ],
);
