/*
 * Each provider's recorded health (providers/routing/recorded-health.ts, docs/routing.md): every
 * process writes its calls' outcomes here and routes new work from here, so ROLE=api processes
 * route alike. The bank is '' for the provider as a whole.
 */
import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** One minute of a provider's calls for one capability: one upsert per call's outcome. */
export const providerHealthMinutes = pgTable(
  'provider_health_minutes',
  {
    capability: text('capability').notNull(),
    provider: text('provider').notNull(),
    bank: text('bank').notNull().default(''),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    calls: integer('calls').notNull().default(0),
    /** Technical failures: no answer, a timeout, a 5xx, a refused key. */
    failures: integer('failures').notNull().default(0),
    /** Of the failures, calls that got no answer at all. */
    timeouts: integer('timeouts').notNull().default(0),
    /** Calls per latency bucket (domain/provider-routing.ts LATENCY_BOUNDS_MS, then above). */
    latency: integer('latency').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.capability, t.provider, t.bank, t.minute] })],
);

/** Whether a provider takes new work of a capability (and bank), moved in one statement. */
export const providerHealthStates = pgTable(
  'provider_health_states',
  {
    capability: text('capability').notNull(),
    provider: text('provider').notNull(),
    bank: text('bank').notNull().default(''),
    failuresInARow: integer('failures_in_a_row').notNull().default(0),
    /** Since when it is eliminated; null while it takes new work. */
    eliminatedAt: timestamp('eliminated_at', { withTimezone: true }),
    /** The end of its cool-down: after it one call probes it. */
    eliminatedUntil: timestamp('eliminated_until', { withTimezone: true }),
    /** Why, in plain words: "after 5 failures in a row". */
    eliminatedReason: text('eliminated_reason'),
    /** When a piece of new work was let through as its probe. */
    probeClaimedAt: timestamp('probe_claimed_at', { withTimezone: true }),
    /** The window's failure rate counts calls from here on (its last re-admission). */
    countedSince: timestamp('counted_since', { withTimezone: true }),
    /** Bumped by every move: a move is made only from the version it was decided on. */
    version: integer('version').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.capability, t.provider, t.bank] })],
);
