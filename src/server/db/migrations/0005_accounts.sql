CREATE TABLE "account_links" (
	"id" text PRIMARY KEY NOT NULL,
	"payer_id" text NOT NULL,
	"account_id" text NOT NULL,
	"route" text NOT NULL,
	"state" text DEFAULT 'created' NOT NULL,
	"test_amount" bigint,
	"pay_in_account_number" text,
	"remita_trans_ref" text,
	"request_id" text,
	"auth_tries" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"activated_at" timestamp with time zone,
	CONSTRAINT "account_links_remita_trans_ref_unique" UNIQUE("remita_trans_ref")
);
--> statement-breakpoint
CREATE TABLE "payer_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"payer_id" text NOT NULL,
	"institution_code" text NOT NULL,
	"account_number" text NOT NULL,
	"account_name" text NOT NULL,
	"bank_name" text NOT NULL,
	"name_enquiry_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_links" ADD CONSTRAINT "account_links_payer_id_payers_id_fk" FOREIGN KEY ("payer_id") REFERENCES "public"."payers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_links" ADD CONSTRAINT "account_links_account_id_payer_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."payer_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_accounts" ADD CONSTRAINT "payer_accounts_payer_id_payers_id_fk" FOREIGN KEY ("payer_id") REFERENCES "public"."payers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_links_payer" ON "account_links" USING btree ("payer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "account_links_one_open" ON "account_links" USING btree ("account_id") WHERE state IN ('created', 'awaiting_authorisation');--> statement-breakpoint
CREATE UNIQUE INDEX "account_links_one_active" ON "account_links" USING btree ("account_id") WHERE state = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "payer_accounts_one_per_payer" ON "payer_accounts" USING btree ("payer_id","institution_code","account_number");