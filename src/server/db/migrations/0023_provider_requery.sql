CREATE TABLE "sandbox_card_charges" (
	"reference" text PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"provider_reference" text,
	"amount" bigint NOT NULL,
	"status" text NOT NULL,
	"awaiting" text,
	"reason" text,
	"response_code" text,
	"auth_code" text,
	"card_brand" text,
	"card_first6" text,
	"card_last4" text,
	"given_back_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_card_charges_provider_reference_unique" UNIQUE("provider_reference")
);
--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "debit_account_id" text;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "refund" text;--> statement-breakpoint
CREATE INDEX "sandbox_card_charges_status" ON "sandbox_card_charges" USING btree ("status");--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_debit_account_id_payer_accounts_id_fk" FOREIGN KEY ("debit_account_id") REFERENCES "public"."payer_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_attempts_refund_owed" ON "payment_attempts" USING btree ("updated_at") WHERE refund = 'owed';