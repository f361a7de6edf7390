-- What the provider that keeps a link's mandate was last found to hold (docs/providers/remita.md).
-- auth_answer_lost_at: when the answer to the payer's auth parameters never came back: the call
-- may have used the bank's one-time code up, so the next try asks the mandate's status first.
-- mandate_end: how the provider said the mandate ended when it was stopped: 'stopped' (now or
-- before), 'expired' (on its end date) or 'not_active' (held, not active: nothing runs on it).
ALTER TABLE "account_links" ADD COLUMN "auth_answer_lost_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "account_links" ADD COLUMN "mandate_end" text;
