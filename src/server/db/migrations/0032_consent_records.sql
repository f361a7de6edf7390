-- A consent record that proves itself (docs/payer-consents.md "The record"): data sharing lasts
-- 12 months from its grant or last confirmation, and a job ends it then; the consent's audit
-- (consent_events) is append-only: the database refuses to change or remove a row of it.
ALTER TABLE "consents" ADD COLUMN "data_sharing_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consents" ADD COLUMN "data_sharing_ended_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "consents_data_sharing_expiry" ON "consents" USING btree ("data_sharing_expires_at") WHERE status = 'granted' AND data_sharing_ended_at IS NULL;--> statement-breakpoint
CREATE FUNCTION "consent_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'consent_events is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "consent_events_append_only" BEFORE UPDATE OR DELETE ON "consent_events" FOR EACH ROW EXECUTE FUNCTION "consent_events_append_only"();
