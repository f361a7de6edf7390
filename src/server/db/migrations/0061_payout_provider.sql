-- The provider a payout was sent to (services/payments/payouts.ts): the reconciler's requery and
-- the notice's requery ask that provider about the payout, never whichever provider takes payouts
-- after a change of PAYOUT_PROVIDERS. Set when the payout is made, from the port that sends it.
--
-- Existing payouts: which provider the deployment ran then is not in the database as such, so it
-- is read from what the data kept, in this order:
--   1. the sandbox bank keeps a record of every payout it was asked for, by our reference (the
--      payout's id, sandbox_payouts.reference): such a payout is the sandbox's;
--   2. a provider reference Paystack wrote (a transfer code, `TRF_…`): Paystack's;
--   3. anything else: 'sandbox' (the default of PAYMENT_PROVIDER).
ALTER TABLE "payouts" ADD COLUMN "provider" text;--> statement-breakpoint
UPDATE "payouts" AS p SET "provider" = CASE
	WHEN EXISTS (SELECT 1 FROM "sandbox_payouts" s WHERE s."reference" = p."id") THEN 'sandbox'
	WHEN p."provider_reference" LIKE 'TRF\_%' THEN 'paystack'
	ELSE 'sandbox'
END;--> statement-breakpoint
ALTER TABLE "payouts" ALTER COLUMN "provider" SET NOT NULL;
