-- What a mandate a provider keeps itself (Remita's) was set up to allow, and when
-- (docs/providers/remita.md "Terms"): a grant that would have it serve more is refused, since the
-- bank would refuse those debits. Null for a mandate set up before they were kept: not checked.
ALTER TABLE "account_links" ADD COLUMN "mandate_terms" jsonb;
