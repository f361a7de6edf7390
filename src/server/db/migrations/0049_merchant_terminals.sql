-- The chip terminals a merchant registered (docs/providers/paystack-terminal.md): the provider's
-- id of each (a Paystack Terminal's terminal_id), which a payer's payment is pushed to. A terminal
-- belongs to one merchant: the same id twice under one provider is refused.
CREATE TABLE "merchant_terminals" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL REFERENCES "merchants"("id"),
	"provider" text NOT NULL,
	"terminal_id" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "merchant_terminals_terminal" ON "merchant_terminals" ("provider","terminal_id");--> statement-breakpoint
CREATE INDEX "merchant_terminals_merchant" ON "merchant_terminals" ("merchant_id");
