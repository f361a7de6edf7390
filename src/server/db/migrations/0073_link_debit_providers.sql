-- The provider that debits each link's mandate, named on its row when the link is made
-- (docs/payments.md "Who debits a saved account"): every debit, and every later call about one,
-- goes to it whatever the lists say later. Older links are named where their rows say who:
-- a mandate its provider keeps itself names it (Remita's); a mandate approved at the bank's page
-- holds Paystack's authorisation, the only adapter that opens them; a link a debit already went
-- through names that debit's provider. The rest stay null: debited by no provider until an
-- operator names theirs (docs/operations.md "Links with no debit provider").
ALTER TABLE "account_links" ADD COLUMN "debit_provider" text;
--> statement-breakpoint
UPDATE "account_links" SET "debit_provider" = "mandate_provider" WHERE "mandate_provider" IS NOT NULL;
--> statement-breakpoint
UPDATE "account_links" SET "debit_provider" = 'paystack'
WHERE "debit_provider" IS NULL AND "route" = 'bank_page' AND "debit_authorization" IS NOT NULL;
--> statement-breakpoint
UPDATE "account_links" l SET "debit_provider" = (
  SELECT a."provider" FROM "payment_attempts" a
  WHERE a."method" = 'account' AND a."debit_account_id" = l."account_id"
    AND l."activated_at" IS NOT NULL AND a."created_at" >= l."activated_at"
  ORDER BY a."created_at" LIMIT 1
)
WHERE l."debit_provider" IS NULL;
