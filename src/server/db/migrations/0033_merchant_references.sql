-- What a merchant matches its orders by (docs/merchant-clients.md "Your reference"): its own
-- reference on a consent, unique per client (a second create with it answers the first consent),
-- metadata echoed on every read and webhook, and the origin-checked address a standalone page sends
-- the payer back to. Events are listed by time for a merchant catching up after downtime.
ALTER TABLE "consents" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "consents" ADD COLUMN "metadata" jsonb;--> statement-breakpoint
ALTER TABLE "consents" ADD COLUMN "return_url" text;--> statement-breakpoint
ALTER TABLE "consents" ADD COLUMN "reference_fingerprint" text;--> statement-breakpoint
CREATE UNIQUE INDEX "consents_client_reference" ON "consents" USING btree ("client_id","reference") WHERE reference IS NOT NULL;--> statement-breakpoint
CREATE INDEX "consents_merchant_created" ON "consents" USING btree ("merchant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "merchant_events_client_created" ON "merchant_events" USING btree ("client_id","created_at");
