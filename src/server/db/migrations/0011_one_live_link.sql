-- An attempt left open beside an active link of its account (the race this index closes) ends
-- cancelled, so that the index can be built.
UPDATE "account_links" AS open SET "state" = 'cancelled', "charge_stage" = NULL, "updated_at" = now()
WHERE open."state" IN ('created', 'awaiting_authorisation')
  AND EXISTS (SELECT 1 FROM "account_links" AS linked WHERE linked."account_id" = open."account_id" AND linked."state" = 'active');--> statement-breakpoint
DROP INDEX "account_links_one_open";--> statement-breakpoint
DROP INDEX "account_links_one_active";--> statement-breakpoint
CREATE UNIQUE INDEX "account_links_one_live" ON "account_links" USING btree ("account_id") WHERE state IN ('created', 'awaiting_authorisation', 'active');
