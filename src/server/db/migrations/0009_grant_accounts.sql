CREATE TABLE "sandbox_debits" (
	"reference" text PRIMARY KEY NOT NULL,
	"provider_reference" text NOT NULL,
	"institution_code" text NOT NULL,
	"account_number" text NOT NULL,
	"amount" bigint NOT NULL,
	"outcome" text NOT NULL,
	"reversed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_debits_provider_reference_unique" UNIQUE("provider_reference")
);
--> statement-breakpoint
CREATE TABLE "future_payment_accounts" (
	"payment_id" text NOT NULL,
	"position" integer NOT NULL,
	"account_id" text NOT NULL,
	"mandate_id" text NOT NULL,
	"payer_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "future_payment_accounts_payment_id_position_pk" PRIMARY KEY("payment_id","position")
);
--> statement-breakpoint
ALTER TABLE "future_payment_accounts" ADD CONSTRAINT "future_payment_accounts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "future_payment_accounts" ADD CONSTRAINT "future_payment_accounts_account_id_payer_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."payer_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "future_payment_accounts" ADD CONSTRAINT "future_payment_accounts_mandate_id_account_links_id_fk" FOREIGN KEY ("mandate_id") REFERENCES "public"."account_links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "future_payment_accounts" ADD CONSTRAINT "future_payment_accounts_payer_id_payers_id_fk" FOREIGN KEY ("payer_id") REFERENCES "public"."payers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_debits_account" ON "sandbox_debits" USING btree ("institution_code","account_number");--> statement-breakpoint
CREATE INDEX "future_payment_accounts_account" ON "future_payment_accounts" USING btree ("account_id");