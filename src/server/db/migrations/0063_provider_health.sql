-- Each provider's recorded health (docs/routing.md): per-minute counts and a latency histogram of
-- its calls, its elimination state for new work, and the routing decision on a payment attempt.
CREATE TABLE "provider_health_minutes" (
	"capability" text NOT NULL,
	"provider" text NOT NULL,
	"bank" text DEFAULT '' NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"timeouts" integer DEFAULT 0 NOT NULL,
	"latency" integer[] NOT NULL,
	CONSTRAINT "provider_health_minutes_capability_provider_bank_minute_pk" PRIMARY KEY("capability","provider","bank","minute")
);--> statement-breakpoint
CREATE TABLE "provider_health_states" (
	"capability" text NOT NULL,
	"provider" text NOT NULL,
	"bank" text DEFAULT '' NOT NULL,
	"failures_in_a_row" integer DEFAULT 0 NOT NULL,
	"eliminated_at" timestamp with time zone,
	"eliminated_until" timestamp with time zone,
	"eliminated_reason" text,
	"probe_claimed_at" timestamp with time zone,
	"counted_since" timestamp with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "provider_health_states_capability_provider_bank_pk" PRIMARY KEY("capability","provider","bank")
);--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "route_note" text;
