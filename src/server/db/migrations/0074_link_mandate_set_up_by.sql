-- The provider that set each link's mandate up, named on its row when the link is made
-- (docs/routing.md "Mandates"): its status, the payer's answers to it and its stop are asked
-- there whatever the lists say later. Older links are named where their rows prove who: a mandate
-- its provider keeps itself names it (Remita's); auth parameters answered with the sandbox's
-- reference are the sandbox's; a mandate opened at the bank's page is Paystack's, the only adapter
-- that opens them. The rest stay null: no provider is asked about their mandate
-- (docs/operations.md "Links whose mandate names no provider").
ALTER TABLE "account_links" ADD COLUMN "mandate_set_up_by" text;
--> statement-breakpoint
UPDATE "account_links" SET "mandate_set_up_by" = "mandate_provider" WHERE "mandate_provider" IS NOT NULL;
--> statement-breakpoint
UPDATE "account_links" SET "mandate_set_up_by" = 'sandbox'
WHERE "mandate_set_up_by" IS NULL AND "route" = 'auth_params' AND "remita_trans_ref" LIKE 'sbx\_rrr\_%';
--> statement-breakpoint
UPDATE "account_links" SET "mandate_set_up_by" = 'paystack'
WHERE "mandate_set_up_by" IS NULL AND "route" = 'bank_page' AND "provider_reference" IS NOT NULL;
