-- The provider's transaction a pushed terminal's payment request produced (Paystack's Fetch
-- Payment Request `transactions`): a refund or a give-back of that payment names it, never the
-- request (services/payments/refunds.ts, settlements.ts).
ALTER TABLE "payment_attempts" ADD COLUMN "charge_reference" text;
