CREATE TABLE "sandbox_people" (
	"bvn" text PRIMARY KEY NOT NULL,
	"full_name" text NOT NULL,
	"date_of_birth" text NOT NULL,
	"phone_number" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_person_accounts" (
	"institution_code" text NOT NULL,
	"account_number" text NOT NULL,
	"bvn" text NOT NULL,
	"account_name" text NOT NULL,
	"scenario" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_person_accounts_institution_code_account_number_pk" PRIMARY KEY("institution_code","account_number")
);
--> statement-breakpoint
CREATE TABLE "sandbox_person_cards" (
	"number_hash" text PRIMARY KEY NOT NULL,
	"scenario" text NOT NULL,
	"first6" text NOT NULL,
	"last4" text NOT NULL,
	"bvn" text NOT NULL,
	"institution_code" text NOT NULL,
	"account_number" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox_person_accounts" ADD CONSTRAINT "sandbox_person_accounts_bvn_sandbox_people_bvn_fk" FOREIGN KEY ("bvn") REFERENCES "public"."sandbox_people"("bvn") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_person_cards" ADD CONSTRAINT "sandbox_person_cards_bvn_sandbox_people_bvn_fk" FOREIGN KEY ("bvn") REFERENCES "public"."sandbox_people"("bvn") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_people_phone" ON "sandbox_people" USING btree ("phone_number");--> statement-breakpoint
CREATE INDEX "sandbox_person_accounts_bvn" ON "sandbox_person_accounts" USING btree ("bvn");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_person_cards_digits" ON "sandbox_person_cards" USING btree ("scenario","first6","last4");--> statement-breakpoint
CREATE INDEX "sandbox_person_cards_bvn" ON "sandbox_person_cards" USING btree ("bvn");