-- Provider notices (docs/payments.md "Provider notices"): each transfer notice we applied, by the
-- provider's reference, with our answer and, for one we did not take, when it went back; and the sandbox bank's transfers waiting for their notice
-- to be answered ('received'), with the one-time account's reference the notice names.
CREATE TABLE "transfer_notices" (
	"provider" text NOT NULL,
	"provider_reference" text NOT NULL,
	"reference" text NOT NULL,
	"amount" bigint NOT NULL,
	"answer" text NOT NULL,
	"returned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transfer_notices_provider_provider_reference_pk" PRIMARY KEY("provider","provider_reference")
);
--> statement-breakpoint
ALTER TABLE "sandbox_transfers" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "sandbox_transfers" ADD COLUMN "notice_sent_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "sandbox_transfers_owed" ON "sandbox_transfers" USING btree ("notice_sent_at") WHERE outcome = 'received';
