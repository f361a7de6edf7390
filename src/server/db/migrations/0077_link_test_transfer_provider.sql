-- The provider that opened a link's one-time account for its test transfer, named on the link
-- before the account is asked for (docs/accounts.md "The test transfer and its refund"): only that
-- provider's notices of the account are taken. Links made before stay null, their notices taken
-- from any provider as before: which one opened their account was not kept.
ALTER TABLE "account_links" ADD COLUMN "test_transfer_provider" text;
