-- A merchant's staff add, change, turn off and delete webhooks on the dashboard (docs/dashboard.md
-- "Developers"). An endpoint may name the events it is sent: null is every event, those added
-- later too, as every endpoint registered before this column (and with the API or the CLI) is
-- sent. And who turned an endpoint off: its receiver, by answering 410 Gone (every endpoint
-- disabled before this column), or staff; the deliveries it is not sent say which.
ALTER TABLE "webhook_endpoints" ADD COLUMN "events" text[];--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "disabled_by" text;--> statement-breakpoint
UPDATE "webhook_endpoints" SET "disabled_by" = 'receiver' WHERE "disabled_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_disabled_by" CHECK ((disabled_at IS NULL AND disabled_by IS NULL) OR (disabled_at IS NOT NULL AND disabled_by IN ('receiver', 'staff')));--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_events" CHECK (events IS NULL OR cardinality(events) > 0);
