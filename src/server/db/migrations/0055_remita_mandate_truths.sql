-- What the provider that keeps a link's mandate was last found to hold (docs/providers/remita.md).
-- auth_answer_lost_at: when the answer to the payer's auth parameters never came back: the call
-- may have used the bank's one-time code up, so the next try asks the mandate's status first.
ALTER TABLE "account_links" ADD COLUMN "auth_answer_lost_at" timestamp with time zone;
