-- A merchant's refunds of a paid payment (docs/payments.md "Refunds"): what each payment has
-- reserved for refunds, each refund's life, and the sandbox network's record of the refunds it made.
ALTER TABLE "payments" ADD COLUMN "refunded" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refunded_within_amount" CHECK (refunded >= 0 AND refunded <= amount);--> statement-breakpoint
CREATE TABLE "payment_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"consent_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"client_id" text NOT NULL,
	"method" text NOT NULL,
	"channel" text NOT NULL,
	"charge_reference" text NOT NULL,
	"sender" jsonb,
	"amount" bigint NOT NULL,
	"reason" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"provider" text NOT NULL,
	"provider_reference" text,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"asked_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "payment_refunds_amount_positive" CHECK (amount > 0)
);
--> statement-breakpoint
CREATE TABLE "sandbox_refunds" (
	"reference" text PRIMARY KEY NOT NULL,
	"provider_reference" text NOT NULL,
	"channel" text NOT NULL,
	"charge_reference" text NOT NULL,
	"institution_code" text,
	"account_number" text,
	"amount" bigint NOT NULL,
	"outcome" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_refunds_provider_reference_unique" UNIQUE("provider_reference")
);
--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_consent_id_consents_id_fk" FOREIGN KEY ("consent_id") REFERENCES "public"."consents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_refunds_payment" ON "payment_refunds" USING btree ("payment_id","created_at");--> statement-breakpoint
CREATE INDEX "payment_refunds_pending" ON "payment_refunds" USING btree ("asked_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "sandbox_refunds_charge" ON "sandbox_refunds" USING btree ("channel","charge_reference");
