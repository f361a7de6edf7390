-- Chip purchases from card readers (docs/terminal.md): one row per rrn, the reader's retrieval
-- reference, so a replayed purchase books nothing twice. Only the masked card number is kept.
CREATE TABLE "terminal_purchases" (
	"id" text PRIMARY KEY NOT NULL,
	"rrn" text NOT NULL,
	"attempt_id" text NOT NULL,
	"payment_id" text NOT NULL,
	"serial" text NOT NULL,
	"tid" text NOT NULL,
	"mid" text NOT NULL,
	"masked_pan" text NOT NULL,
	"amount" bigint NOT NULL,
	"trans_datetime" text NOT NULL,
	"response_code" text,
	"auth_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "terminal_purchases_amount_positive" CHECK (amount > 0)
);
--> statement-breakpoint
ALTER TABLE "terminal_purchases" ADD CONSTRAINT "terminal_purchases_attempt_id_payment_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."payment_attempts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "terminal_purchases" ADD CONSTRAINT "terminal_purchases_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "terminal_purchases_rrn" ON "terminal_purchases" USING btree ("rrn");--> statement-breakpoint
CREATE INDEX "terminal_purchases_payment" ON "terminal_purchases" USING btree ("payment_id");