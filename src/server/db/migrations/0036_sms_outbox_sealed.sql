-- No SMS text in clear in the database (docs/security.md "What is never stored or logged"): an SMS
-- job's data names its row of the SMS queue, where the text waits sealed until it is sent and is
-- then erased; the sandbox outbox keeps what it "sent" sealed to its number. The sandbox outbox's
-- messages in clear cannot be sealed here (the key is a server secret, SECRETS_KEY may seal it):
-- they are dropped, as are SMS jobs that carry their text, whatever their state (the sandbox is
-- the only SMS provider: none of them reached a phone). pg-boss's schema is made by pg-boss at
-- start, so a new database has none yet.
CREATE TABLE "sms_queue" (
	"id" uuid PRIMARY KEY NOT NULL,
	"phone_number" text NOT NULL,
	"sealed_body" text,
	"not_after" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
DELETE FROM "sms_outbox";--> statement-breakpoint
ALTER TABLE "sms_outbox" RENAME COLUMN "body" TO "sealed_body";--> statement-breakpoint
DO $$
BEGIN
  IF to_regclass('pgboss.job') IS NOT NULL THEN
    DELETE FROM pgboss.job WHERE name IN ('sms.send', 'sms.send.dead') AND data ->> 'body' IS NOT NULL;
  END IF;
END $$;
