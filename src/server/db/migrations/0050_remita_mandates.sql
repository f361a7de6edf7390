-- Whose mandate an account link holds, where it is not the debits capability's: a mandate the
-- mandates capability's provider keeps and debits itself (Remita, docs/providers/remita.md). Its
-- debits go to that provider, whatever adapter serves direct debits.
ALTER TABLE "account_links" ADD COLUMN "mandate_provider" text;
