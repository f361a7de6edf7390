ALTER TABLE "merchant_events" ADD COLUMN "public_id" text;--> statement-breakpoint
-- Events written before public ids get one of the same shape (a random UUID's 16 bytes, base64url).
UPDATE "merchant_events" SET "public_id" = 'evt_' || translate(rtrim(encode(uuid_send(gen_random_uuid()), 'base64'), '='), '+/', '-_');--> statement-breakpoint
ALTER TABLE "merchant_events" ALTER COLUMN "public_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "retiring_secrets" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "merchant_events_public_id" ON "merchant_events" USING btree ("public_id");
