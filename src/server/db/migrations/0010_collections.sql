CREATE TABLE "future_payment_collections" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"consent_id" text NOT NULL,
	"trigger" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"notified_at" timestamp with time zone,
	"claimed_at" timestamp with time zone,
	"claims" integer DEFAULT 0 NOT NULL,
	"requested_by" text,
	"account_id" text,
	"provider_reference" text,
	"tries" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"failure_code" text,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "future_payment_collections_amount_positive" CHECK (amount > 0)
);
--> statement-breakpoint
ALTER TABLE "future_payment_collections" ADD CONSTRAINT "future_payment_collections_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "future_payment_collections" ADD CONSTRAINT "future_payment_collections_consent_id_consents_id_fk" FOREIGN KEY ("consent_id") REFERENCES "public"."consents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "future_payment_collections" ADD CONSTRAINT "future_payment_collections_account_id_payer_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."payer_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "future_payment_collections_one_scheduled" ON "future_payment_collections" USING btree ("payment_id") WHERE "trigger" = 'schedule';--> statement-breakpoint
CREATE UNIQUE INDEX "future_payment_collections_one_open" ON "future_payment_collections" USING btree ("payment_id") WHERE status IN ('pending', 'collecting');--> statement-breakpoint
CREATE UNIQUE INDEX "future_payment_collections_one_succeeded" ON "future_payment_collections" USING btree ("payment_id") WHERE status = 'succeeded';--> statement-breakpoint
CREATE INDEX "future_payment_collections_due" ON "future_payment_collections" USING btree ("status","due_at");--> statement-breakpoint
CREATE INDEX "future_payment_collections_consent" ON "future_payment_collections" USING btree ("consent_id");