-- A card link's test charge is settled once the network's last word on it is recorded: never
-- taken, or taken and given back, its refund booked (docs/accounts.md "A check left waiting"). A
-- card link that ended with its charge unsettled (superseded, expired, its refund refused, its
-- answer lost) is asked about by the reconciler until it is. Of the links before this column, an
-- active one was refunded as it was linked and one whose refund is booked was given back; every
-- other card link that ended is asked about, once.
ALTER TABLE "account_links" ADD COLUMN "charge_settled_at" timestamp with time zone;--> statement-breakpoint
UPDATE "account_links" SET "charge_settled_at" = "updated_at" WHERE "route" = 'card' AND ("state" = 'active' OR EXISTS (SELECT 1 FROM "ledger_transactions" WHERE "ledger_transactions"."kind" = 'test_charge_refund' AND "ledger_transactions"."reference" = "account_links"."id"));
