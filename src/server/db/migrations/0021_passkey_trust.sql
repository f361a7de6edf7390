ALTER TABLE "passkeys" ADD COLUMN "approval" text DEFAULT 'not-needed' NOT NULL;--> statement-breakpoint
ALTER TABLE "passkeys" ADD COLUMN "approved_by" text;--> statement-breakpoint
ALTER TABLE "payers" ADD COLUMN "trusts_first_passkey" boolean DEFAULT false NOT NULL;