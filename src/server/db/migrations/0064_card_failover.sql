-- Card failover (docs/payments.md "Card failover"; src/domain/payment-attempts.ts): a card charge
-- its network did not answer is 'unanswered' until that network says what it took. It holds the
-- payment as a charge at the network does: one of either per payment, so nothing charges the
-- payment again, there or at the next network, before the requery gate opens.
DROP INDEX IF EXISTS "payment_attempts_one_charging";--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_one_charging" ON "payment_attempts" ("payment_id")
  WHERE "stage" IN ('charging', 'unanswered');--> statement-breakpoint
-- What the reconciler's watch asks about again: charges that failed over without their network's
-- word (ASKING_WINDOW_REASON), whose money may still be reported taken and is then booked once.
CREATE INDEX "payment_attempts_failed_over_unknown" ON "payment_attempts" ("updated_at")
  WHERE "stage" IN ('retry_elsewhere', 'tried_elsewhere')
    AND "failure_reason" = 'no word from its provider within the asking window'
    AND "refund" IS NULL;
