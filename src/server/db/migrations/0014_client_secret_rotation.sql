-- A rotated client secret stays valid for a grace period (docs/merchant-clients.md).
ALTER TABLE "api_clients" ADD COLUMN "previous_secret_hash" text;--> statement-breakpoint
ALTER TABLE "api_clients" ADD COLUMN "previous_secret_expires_at" timestamp with time zone;