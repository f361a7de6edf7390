-- The payer's rights over their data (docs/payer-rights.md): each request (a copy, an erasure, a
-- correction) tracked from receipt to answer, with the law's month as its due date. A copy is
-- kept sealed until its link expires; the link carries an HMAC, never stored. One request of a
-- kind is open at a time per payer: asking again answers the open one.
CREATE TABLE "payer_rights_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"payer_id" text NOT NULL REFERENCES "payers"("id") ON DELETE CASCADE,
	"kind" text NOT NULL,
	"status" text DEFAULT 'received' NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"done_at" timestamp with time zone,
	"kept" jsonb,
	"export_sealed" text,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "payer_rights_requests_open" ON "payer_rights_requests" ("payer_id", "kind") WHERE "status" = 'received';
--> statement-breakpoint
CREATE INDEX "payer_rights_requests_payer" ON "payer_rights_requests" ("payer_id", "received_at");
