-- A merchant's pin and pauses of the providers of a capability (docs/routing.md, the dashboard's
-- Routes screen): one row per merchant and capability, so pausing is one conditional UPDATE of
-- that row, which refuses to pause the last provider of the list still taking new work even when
-- two owners pause the last two at once (the row's lock orders them).
--   pinned: the provider new work tries first, or null;
--   paused: { provider: since (ISO time) }, providers left out of new work.
CREATE TABLE "route_settings" (
	"merchant_id" text NOT NULL REFERENCES "merchants"("id"),
	"capability" text NOT NULL,
	"pinned" text,
	"pinned_at" timestamp with time zone,
	"paused" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "route_settings_pk" PRIMARY KEY ("merchant_id", "capability"),
	CONSTRAINT "route_settings_pinned_not_paused" CHECK ("pinned" IS NULL OR NOT jsonb_exists("paused", "pinned"))
);
