-- What an adapter knows of its own references, moved from each process's memory to the database
-- (providers/provider-references.ts): with ROLE=api running several processes, a reference one
-- process closed (its requery found that the provider never saw it) is refused in every other,
-- and a charge waiting for its payer, or a one-time account opened, is known to all of them.
-- What processes held in memory before this ran is gone with them, as it was at every restart.
CREATE TABLE "provider_references" (
	"provider" text NOT NULL,
	"kind" text NOT NULL,
	"reference" text NOT NULL,
	"state" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "provider_references_provider_kind_reference_pk" PRIMARY KEY("provider","kind","reference")
);
