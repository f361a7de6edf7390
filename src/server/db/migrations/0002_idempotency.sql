CREATE TABLE "idempotency_keys" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_scope_key_pk" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
-- Keys recorded on consents before this table existed keep answering their first consent.
INSERT INTO "idempotency_keys" ("scope", "key", "fingerprint", "response", "created_at")
SELECT 'consents.create:' || "client_id", "idempotency_key", NULL,
       jsonb_build_object('consentId', "id",
                          'expiresAt', to_char("expires_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
       "created_at"
FROM "consents" WHERE "idempotency_key" IS NOT NULL;--> statement-breakpoint
DROP INDEX "consents_client_idempotency_key";--> statement-breakpoint
CREATE INDEX "idempotency_keys_created" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "consents" DROP COLUMN "idempotency_key";