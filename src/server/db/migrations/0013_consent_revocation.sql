-- A payer's own consents (docs/payer-consents.md): who granted each, and when it was revoked.
-- Payments and collections gain the state 'cancelled' (status is text, so no DDL for that).
ALTER TABLE "consents" ADD COLUMN "granted_by" text;--> statement-breakpoint
ALTER TABLE "consents" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
-- Consents granted before this migration: their grant's audit row names the signed-in payer.
UPDATE "consents" AS c SET "granted_by" = substr(e."actor", 7)
FROM "consent_events" AS e
WHERE e."consent_id" = c."id" AND e."type" = 'consent.granted'
  AND e."actor" LIKE 'payer:%' AND e."actor" <> 'payer:anonymous'
  AND c."granted_by" IS NULL;--> statement-breakpoint
CREATE INDEX "consents_granted_by" ON "consents" USING btree ("granted_by","granted_at","id");
