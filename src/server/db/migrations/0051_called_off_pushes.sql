-- What the reconciler asks about again: pushed terminals' payment requests called off unpaid
-- (services/payments/lost-attempts.ts reconcileLostAttempts, CALLED_OFF_REASON in
-- src/domain/payment-attempts.ts), found without reading every attempt.
CREATE INDEX "payment_attempts_called_off" ON "payment_attempts" ("updated_at")
  WHERE "status" = 'failed'
    AND "failure_reason" = 'called off: no card at the terminal in time'
    AND "refund" IS NULL;
