-- Payouts: a payer releases what their payment requests collected to a linked account (docs/payments.md "Releasing").
CREATE TABLE "payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"payer_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"account_id" text,
	"institution_code" text NOT NULL,
	"account_number" text NOT NULL,
	"account_name" text NOT NULL,
	"bank_name" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" text DEFAULT 'paying' NOT NULL,
	"provider_reference" text,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"asked_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "payouts_amount_positive" CHECK (amount > 0)
);
--> statement-breakpoint
CREATE TABLE "sandbox_payouts" (
	"reference" text PRIMARY KEY NOT NULL,
	"provider_reference" text NOT NULL,
	"institution_code" text NOT NULL,
	"account_number" text NOT NULL,
	"amount" bigint NOT NULL,
	"outcome" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_payouts_provider_reference_unique" UNIQUE("provider_reference")
);
--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_account_id_payer_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."payer_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payouts_payer" ON "payouts" USING btree ("payer_id","created_at");--> statement-breakpoint
CREATE INDEX "payouts_paying" ON "payouts" USING btree ("asked_at") WHERE status = 'paying';--> statement-breakpoint
CREATE INDEX "sandbox_payouts_account" ON "sandbox_payouts" USING btree ("institution_code","account_number");