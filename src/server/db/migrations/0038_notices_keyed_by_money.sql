-- A provider's notice of money (docs/payments.md "Provider notices") is recorded by what it says:
-- the provider's reference with the amount and the currency, so a second notice of the same
-- transfer that says another amount is judged for itself instead of getting the first one's
-- answer. The currency is kept: money in another currency than the naira is never taken, and the
-- record shows what went back. Notices recorded before this column were all read as naira.
ALTER TABLE "transfer_notices" ADD COLUMN "currency" text DEFAULT 'NGN' NOT NULL;--> statement-breakpoint
ALTER TABLE "transfer_notices" ALTER COLUMN "currency" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "transfer_notices" DROP CONSTRAINT "transfer_notices_provider_provider_reference_pk";--> statement-breakpoint
ALTER TABLE "transfer_notices" ADD CONSTRAINT "transfer_notices_provider_provider_reference_amount_currency_pk" PRIMARY KEY("provider","provider_reference","amount","currency");
