-- A card link's test charge is an attempt (purpose 'link_test'; src/domain/payment-attempts.ts),
-- moved along the attempts' one table, where it was a stage and a provider on its link. Its id is
-- the link's, the reference the card network knows the charge by, so the network's word on a
-- charge made before this migration still finds it.
ALTER TABLE "payment_attempts" ADD COLUMN "purpose" text DEFAULT 'payment' NOT NULL;
--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "link_id" text;
--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_link_id_account_links_id_fk"
  FOREIGN KEY ("link_id") REFERENCES "public"."account_links"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "payment_attempts" ALTER COLUMN "payment_id" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "payment_attempts" ALTER COLUMN "consent_id" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_purpose_owner" CHECK (
  (purpose = 'payment' AND payment_id IS NOT NULL AND consent_id IS NOT NULL AND link_id IS NULL)
  OR (purpose = 'link_test' AND link_id IS NOT NULL AND payment_id IS NULL AND consent_id IS NULL));
--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_link" ON "payment_attempts" ("link_id") WHERE link_id IS NOT NULL;
--> statement-breakpoint
-- Every card link's test charge becomes its attempt:
-- - one still waiting (a stage) waits there;
-- - one whose link ended with the network's last word not had (charge_settled_at null) is still
--   at the network as far as we know ('charging', which the reconciler asks about), unless its
--   charge was booked and its refund not: then it is taken and owed back;
-- - one settled is taken and given back (its refund booked), or failed with nothing taken.
INSERT INTO "payment_attempts" ("id", "purpose", "link_id", "method", "status", "stage", "amount",
  "payer_id", "provider", "provider_reference", "card_expiry_month", "card_expiry_year", "refund",
  "created_at", "updated_at", "completed_at")
SELECT l."id", 'link_test', l."id", 'card', s."status", s."stage", l."test_amount", l."payer_id",
  l."charge_provider", l."provider_reference", l."card_expiry_month", l."card_expiry_year",
  s."refund", l."created_at", l."updated_at",
  CASE WHEN s."status" = 'completed' THEN l."updated_at" END
FROM "account_links" l
CROSS JOIN LATERAL (
  SELECT EXISTS (SELECT 1 FROM "ledger_transactions" t
                 WHERE t."kind" = 'link_test_charge' AND t."reference" = l."id") AS "booked",
         EXISTS (SELECT 1 FROM "ledger_transactions" t
                 WHERE t."kind" = 'test_charge_refund' AND t."reference" = l."id") AS "refunded"
) b
CROSS JOIN LATERAL (
  SELECT
    CASE WHEN l."charge_stage" IS NOT NULL THEN 'in_progress'
         WHEN l."charge_settled_at" IS NULL AND NOT b."booked" THEN 'in_progress'
         WHEN b."booked" THEN 'completed'
         ELSE 'failed' END AS "status",
    CASE WHEN l."charge_stage" IS NOT NULL THEN l."charge_stage"
         WHEN l."charge_settled_at" IS NULL AND NOT b."booked" THEN 'charging' END AS "stage",
    CASE WHEN l."charge_stage" IS NULL AND b."booked" AND b."refunded" THEN 'settled'
         WHEN l."charge_stage" IS NULL AND b."booked" THEN 'owed' END AS "refund"
) s
WHERE l."route" = 'card' AND l."charge_provider" IS NOT NULL AND l."test_amount" IS NOT NULL;
--> statement-breakpoint
-- The network's reference of a card link's test charge is its attempt's now.
UPDATE "account_links" SET "provider_reference" = NULL
WHERE "route" = 'card' AND "charge_provider" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "account_links" DROP COLUMN "charge_stage";
--> statement-breakpoint
ALTER TABLE "account_links" DROP COLUMN "charge_provider";
--> statement-breakpoint
ALTER TABLE "account_links" DROP COLUMN "charge_settled_at";
