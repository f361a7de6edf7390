CREATE TABLE "api_clients" (
	"client_id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"secret_hash" text NOT NULL,
	"allowed_origins" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consent_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"consent_id" text NOT NULL,
	"type" text NOT NULL,
	"actor" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consents" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"client_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"granted_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"party_image" text,
	"act_on_behalf_of" jsonb,
	"form_id" text,
	"form_response_id" text,
	"form_update_token" text,
	"form_template_values" jsonb,
	"requires_auth" boolean DEFAULT false NOT NULL,
	"requires_account" boolean DEFAULT false NOT NULL,
	"attest_discovery_id" text,
	"auth_app_id" text,
	"original_request_id" text,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_sharing_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"consent_id" text NOT NULL,
	"category" text NOT NULL,
	"item" text
);
--> statement-breakpoint
CREATE TABLE "merchants" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"image" text,
	"tag" text,
	"type" text DEFAULT 'merchant' NOT NULL,
	"primary_colour" text NOT NULL,
	"primary_text" text NOT NULL,
	"secondary_colour" text NOT NULL,
	"secondary_text" text NOT NULL,
	"wallet_bank_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" text PRIMARY KEY NOT NULL,
	"consent_id" text NOT NULL,
	"position" integer NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"executed_at" timestamp with time zone,
	"amount" bigint NOT NULL,
	"narration" text NOT NULL,
	"due_date" timestamp with time zone,
	"start_date" timestamp with time zone,
	"end_date" timestamp with time zone,
	"frequency" text,
	"interval" integer,
	"amount_type" text DEFAULT 'fixed' NOT NULL,
	"paypoint_id" text,
	"paypoint_location_name" text,
	"shield_wallet_bank_name" text,
	"origin" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_clients" ADD CONSTRAINT "api_clients_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_events" ADD CONSTRAINT "consent_events_consent_id_consents_id_fk" FOREIGN KEY ("consent_id") REFERENCES "public"."consents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_client_id_api_clients_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."api_clients"("client_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_sharing_items" ADD CONSTRAINT "data_sharing_items_consent_id_consents_id_fk" FOREIGN KEY ("consent_id") REFERENCES "public"."consents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_consent_id_consents_id_fk" FOREIGN KEY ("consent_id") REFERENCES "public"."consents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consent_events_consent_id" ON "consent_events" USING btree ("consent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "consents_client_idempotency_key" ON "consents" USING btree ("client_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "data_sharing_items_consent_id" ON "data_sharing_items" USING btree ("consent_id");--> statement-breakpoint
CREATE INDEX "payments_consent_id" ON "payments" USING btree ("consent_id");