ALTER TABLE "payment_attempts" ADD COLUMN "challenge_url" text;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "challenge_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "returned" jsonb;--> statement-breakpoint
CREATE INDEX "payment_attempts_challenge_expiry" ON "payment_attempts" USING btree ("challenge_expires_at") WHERE stage = 'awaiting_3ds';