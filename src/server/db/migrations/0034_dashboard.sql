-- The merchant dashboard (docs/dashboard.md): a merchant's staff (people, as payers are, by their
-- phone and passkeys) with a role each, the invitations that make them staff, their cookie
-- sessions, the audit of everything staff did (append-only: the database refuses to change or
-- remove a row of it), and the merchant API's request log of the last 7 days.
CREATE TABLE "dashboard_staff" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL REFERENCES "merchants"("id"),
	"payer_id" text NOT NULL REFERENCES "payers"("id") ON DELETE CASCADE,
	"role" text NOT NULL,
	"refund_limit" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone,
	CONSTRAINT "dashboard_staff_role" CHECK (role IN ('owner', 'developer', 'support', 'viewer')),
	CONSTRAINT "dashboard_staff_refund_limit" CHECK (refund_limit IS NULL OR refund_limit >= 0)
);--> statement-breakpoint
CREATE UNIQUE INDEX "dashboard_staff_one_per_person" ON "dashboard_staff" USING btree ("merchant_id","payer_id") WHERE removed_at IS NULL;--> statement-breakpoint
CREATE INDEX "dashboard_staff_payer" ON "dashboard_staff" USING btree ("payer_id");--> statement-breakpoint
CREATE TABLE "dashboard_invitations" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL REFERENCES "merchants"("id"),
	"role" text NOT NULL,
	"refund_limit" bigint,
	"phone_number" text,
	"token_hash" text NOT NULL,
	"invited_by" text REFERENCES "dashboard_staff"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" text REFERENCES "dashboard_staff"("id"),
	"revoked_at" timestamp with time zone,
	CONSTRAINT "dashboard_invitations_role" CHECK (role IN ('owner', 'developer', 'support', 'viewer'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "dashboard_invitations_token" ON "dashboard_invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "dashboard_invitations_merchant" ON "dashboard_invitations" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE TABLE "dashboard_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"csrf_token" text NOT NULL,
	"payer_id" text NOT NULL REFERENCES "payers"("id") ON DELETE CASCADE,
	"staff_id" text REFERENCES "dashboard_staff"("id"),
	"invitation_id" text REFERENCES "dashboard_invitations"("id"),
	"method" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "dashboard_sessions_method" CHECK (method IN ('passkey', 'phone-code'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "dashboard_sessions_token" ON "dashboard_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE TABLE "dashboard_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL REFERENCES "merchants"("id"),
	"staff_id" text REFERENCES "dashboard_staff"("id"),
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"target" text,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "dashboard_audit_merchant" ON "dashboard_audit" USING btree ("merchant_id","id");--> statement-breakpoint
CREATE FUNCTION "dashboard_audit_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'dashboard_audit is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "dashboard_audit_append_only" BEFORE UPDATE OR DELETE ON "dashboard_audit" FOR EACH ROW EXECUTE FUNCTION "dashboard_audit_append_only"();--> statement-breakpoint
CREATE TABLE "api_request_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL REFERENCES "api_clients"("client_id") ON DELETE CASCADE,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status" integer NOT NULL,
	"idempotency_key" text,
	"request_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "api_request_log_client" ON "api_request_log" USING btree ("client_id","created_at");
