-- The passkey behind each dashboard session (docs/dashboard.md "Sessions"): a passkey added with
-- an SMS code alone reads at once but changes nothing (refunds, cancels, keys, webhooks, the team)
-- until the payers' own wait is over; a removed passkey's sessions end with it. Sessions from
-- before this column have none and sign in again. And the first part of each webhook delivery's
-- last answer body, for the delivery log.
ALTER TABLE "dashboard_sessions" ADD COLUMN "passkey_id" text REFERENCES "passkeys"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "last_body" text;
