-- A payer's complaints about payments (docs/payer-consents.md "Complaints"): a reference given at
-- once, the targets it is held to, and its state (domain/complaints.ts). One open complaint per
-- payment: raising it again answers the open one.
CREATE TABLE "payment_complaints" (
	"id" text PRIMARY KEY NOT NULL,
	"reference" text NOT NULL UNIQUE,
	"payer_id" text NOT NULL REFERENCES "payers"("id") ON DELETE CASCADE,
	"payment_id" text NOT NULL REFERENCES "payments"("id") ON DELETE CASCADE,
	"consent_id" text NOT NULL REFERENCES "consents"("id") ON DELETE CASCADE,
	"merchant_id" text NOT NULL REFERENCES "merchants"("id"),
	"client_id" text NOT NULL,
	"category" text NOT NULL,
	"description" text NOT NULL,
	"state" text DEFAULT 'received' NOT NULL,
	"acknowledge_by" timestamp with time zone NOT NULL,
	"resolve_by" timestamp with time zone NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"resolved_at" timestamp with time zone,
	"resolution" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_complaints_state" CHECK ("state" IN ('received', 'acknowledged', 'resolved'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "payment_complaints_open_per_payment" ON "payment_complaints" ("payment_id") WHERE "state" <> 'resolved';
--> statement-breakpoint
CREATE INDEX "payment_complaints_payer_created" ON "payment_complaints" ("payer_id", "created_at", "id");
--> statement-breakpoint
CREATE INDEX "payment_complaints_open" ON "payment_complaints" ("created_at") WHERE "state" <> 'resolved';
