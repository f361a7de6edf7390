-- Who looked at the payer's BVN (docs/payer-consents.md "Who looked at your BVN"): one row per
-- lookup made with a payer's BVN or one of their accounts, written where the lookup happens. It
-- holds no BVN: the kind, the provider, the consent, the merchant that received what, and an
-- account's bank and last 4 digits.
CREATE TABLE "bvn_lookups" (
	"id" text PRIMARY KEY NOT NULL,
	"payer_id" text NOT NULL REFERENCES "payers"("id") ON DELETE CASCADE,
	"kind" text NOT NULL,
	"provider" text,
	"consent_id" text REFERENCES "consents"("id") ON DELETE SET NULL,
	"merchant_id" text REFERENCES "merchants"("id") ON DELETE SET NULL,
	"institution_code" text,
	"account_last4" text,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bvn_lookups_kind" CHECK ("kind" IN ('bvn_verification', 'account_owner', 'data_shared')),
	CONSTRAINT "bvn_lookups_last4" CHECK ("account_last4" IS NULL OR "account_last4" ~ '^[0-9]{4}$')
);
--> statement-breakpoint
CREATE INDEX "bvn_lookups_payer_created" ON "bvn_lookups" ("payer_id", "created_at", "id");
