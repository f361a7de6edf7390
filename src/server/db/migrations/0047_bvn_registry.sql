-- The BVN registry sends the payer's code itself (NIBSS's iGree through Mono; the sandbox registry
-- through the SMS outbox): a verification keeps the registry's session, sealed, and the ways it
-- offered, instead of a code of ours. Verifications under way when this runs end: their payers ask
-- again. What the registry said of the holder, and the accounts under the BVN, are kept sealed on
-- the payer; an account's holder, as the registry's account-number lookup answered it, is kept by
-- its keyed hash so that a billed lookup is made once per account (docs/providers/mono.md).
DELETE FROM "bvn_codes" WHERE "consumed_at" IS NULL;--> statement-breakpoint
ALTER TABLE "bvn_codes" DROP COLUMN "code_hash";--> statement-breakpoint
ALTER TABLE "bvn_codes" ADD COLUMN "session_sealed" text NOT NULL DEFAULT '';--> statement-breakpoint
ALTER TABLE "bvn_codes" ALTER COLUMN "session_sealed" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "bvn_codes" ADD COLUMN "methods" jsonb NOT NULL DEFAULT '[]'::jsonb;--> statement-breakpoint
ALTER TABLE "bvn_codes" ALTER COLUMN "methods" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "bvn_codes" ADD COLUMN "method" text;--> statement-breakpoint
ALTER TABLE "bvn_codes" ADD COLUMN "sends" integer NOT NULL DEFAULT 0;--> statement-breakpoint
ALTER TABLE "payers" ADD COLUMN "bvn_holder_sealed" text;--> statement-breakpoint
ALTER TABLE "payers" ADD COLUMN "bvn_accounts_sealed" text;--> statement-breakpoint
CREATE TABLE "sandbox_bvn_sessions" (
	"session" text PRIMARY KEY NOT NULL,
	"bvn" text NOT NULL,
	"code_hash" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "account_owner_lookups" (
	"institution_code" text NOT NULL,
	"account_number" text NOT NULL,
	"owner_bvn_hash" text,
	"looked_up_at" timestamp with time zone NOT NULL,
	CONSTRAINT "account_owner_lookups_institution_code_account_number_pk" PRIMARY KEY("institution_code","account_number")
);
