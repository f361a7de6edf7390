ALTER TABLE "sandbox_transfers" ADD COLUMN "sender_institution_code" text;--> statement-breakpoint
ALTER TABLE "sandbox_transfers" ADD COLUMN "sender_account_number" text;