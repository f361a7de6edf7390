-- Mandates a payer approves at their bank's page (docs/accounts.md "Bank-page mandates"): the
-- authorisation the provider debits by, once the bank confirmed it; and an account whose holder
-- the provider checks against the payer's BVN after the name enquiry (docs/identity.md "The BVN"):
-- the check waiting or refused, and the keyed hash of the BVN it was asked about.
ALTER TABLE "account_links" ADD COLUMN "debit_authorization" text;--> statement-breakpoint
ALTER TABLE "payer_accounts" ADD COLUMN "holder_check" text;--> statement-breakpoint
ALTER TABLE "payer_accounts" ADD COLUMN "holder_check_bvn_hash" text;
