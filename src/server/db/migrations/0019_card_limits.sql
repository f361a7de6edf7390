CREATE TABLE "card_payment_tries" (
	"payment_id" text NOT NULL,
	"card_key" text NOT NULL,
	"tries" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_payment_tries_payment_id_card_key_pk" PRIMARY KEY("payment_id","card_key"),
	CONSTRAINT "card_payment_tries_tries" CHECK (tries >= 0)
);
--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "owner_token_hash" text;--> statement-breakpoint
ALTER TABLE "card_payment_tries" ADD CONSTRAINT "card_payment_tries_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;