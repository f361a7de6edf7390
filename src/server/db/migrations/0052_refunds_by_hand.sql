-- Money owed back that only an operator can give (a pushed terminal's payment request paid on a
-- payment paid otherwise: refund 'by_hand', services/payments/settlements.ts): the reference of
-- the refund the operator made at the provider, recorded with `npm run refund:given-back`.
ALTER TABLE "payment_attempts" ADD COLUMN "refund_reference" text;
--> statement-breakpoint
-- What the metrics read of them (oya_owed_back_*), beside the index of those still 'owed'.
CREATE INDEX "payment_attempts_refund_by_hand" ON "payment_attempts" ("updated_at")
  WHERE "refund" = 'by_hand';
