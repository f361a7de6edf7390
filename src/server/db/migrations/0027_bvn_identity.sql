CREATE TABLE "bvn_codes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"payer_id" text NOT NULL,
	"bvn_hash" text NOT NULL,
	"bvn_sealed" text NOT NULL,
	"bvn_last4" text NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"wrong_tries" integer DEFAULT 0 NOT NULL,
	"consumed_at" timestamp with time zone,
	"superseded_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD COLUMN "passkey_proven_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "passkeys" ADD COLUMN "removal_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "passkeys" ADD COLUMN "removal_cancel_hash" text;--> statement-breakpoint
ALTER TABLE "payers" ADD COLUMN "bvn_hash" text;--> statement-breakpoint
ALTER TABLE "payers" ADD COLUMN "bvn_sealed" text;--> statement-breakpoint
ALTER TABLE "payers" ADD COLUMN "bvn_last4" text;--> statement-breakpoint
ALTER TABLE "payers" ADD COLUMN "bvn_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_links" ADD COLUMN "bvn_hash" text;--> statement-breakpoint
ALTER TABLE "payer_accounts" ADD COLUMN "bvn_hash" text;--> statement-breakpoint
ALTER TABLE "bvn_codes" ADD CONSTRAINT "bvn_codes_payer_id_payers_id_fk" FOREIGN KEY ("payer_id") REFERENCES "public"."payers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bvn_codes_payer_created" ON "bvn_codes" USING btree ("payer_id","created_at");--> statement-breakpoint
ALTER TABLE "payers" ADD CONSTRAINT "payers_bvn_hash_unique" UNIQUE("bvn_hash");