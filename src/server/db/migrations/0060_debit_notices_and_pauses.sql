-- The payer in control of their debits (docs/payer-consents.md "Told before every debit" and
-- "Pause and resume"): a consent's future payments may be paused by its payer. A skipped payment
-- or collection is a new value of their text states, which no constraint lists.
ALTER TABLE "consents" ADD COLUMN "paused_at" timestamp with time zone;
