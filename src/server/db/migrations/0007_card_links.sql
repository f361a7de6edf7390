ALTER TABLE "payment_attempts" ADD COLUMN "card_expiry_month" integer;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "card_expiry_year" integer;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "card_token" text;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "card_saved_to" text;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "card_saved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_links" ADD COLUMN "provider_reference" text;--> statement-breakpoint
ALTER TABLE "account_links" ADD COLUMN "charge_stage" text;--> statement-breakpoint
ALTER TABLE "account_links" ADD COLUMN "card_expiry_month" integer;--> statement-breakpoint
ALTER TABLE "account_links" ADD COLUMN "card_expiry_year" integer;--> statement-breakpoint
ALTER TABLE "payer_accounts" ADD COLUMN "card_token" text;--> statement-breakpoint
ALTER TABLE "payer_accounts" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "payer_accounts" ADD COLUMN "card_first6" text;--> statement-breakpoint
ALTER TABLE "payer_accounts" ADD COLUMN "card_last4" text;--> statement-breakpoint
ALTER TABLE "payer_accounts" ADD COLUMN "card_expiry_month" integer;--> statement-breakpoint
ALTER TABLE "payer_accounts" ADD COLUMN "card_expiry_year" integer;--> statement-breakpoint
ALTER TABLE "payer_accounts" ADD COLUMN "card_saved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_card_saved_to_payer_accounts_id_fk" FOREIGN KEY ("card_saved_to") REFERENCES "public"."payer_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_links" ADD CONSTRAINT "account_links_provider_reference_unique" UNIQUE("provider_reference");--> statement-breakpoint
ALTER TABLE "payer_accounts" ADD CONSTRAINT "payer_accounts_card_whole" CHECK ((card_token IS NULL AND card_brand IS NULL AND card_first6 IS NULL AND card_last4 IS NULL AND card_expiry_month IS NULL AND card_expiry_year IS NULL AND card_saved_at IS NULL) OR (card_token IS NOT NULL AND card_brand IS NOT NULL AND card_first6 IS NOT NULL AND card_last4 IS NOT NULL AND card_expiry_month IS NOT NULL AND card_expiry_year IS NOT NULL AND card_saved_at IS NOT NULL));