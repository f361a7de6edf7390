-- A pushed terminal's payment request called off unpaid is a state of its attempt ('called_off':
-- status failed, stage called_off; src/domain/payment-attempts.ts), no longer a failed attempt
-- told apart by its reason alone. The reason stays written beside it, for the payer and the
-- merchant to read.
UPDATE "payment_attempts" SET "stage" = 'called_off'
WHERE "method" = 'chip_card' AND "status" = 'failed' AND "stage" IS NULL
  AND "failure_reason" = 'called off: no card at the terminal in time';
--> statement-breakpoint
-- What the reconciler asks about again (attempts/reconcile.ts), found by the state.
DROP INDEX "payment_attempts_called_off";
--> statement-breakpoint
CREATE INDEX "payment_attempts_called_off" ON "payment_attempts" ("updated_at")
  WHERE "stage" = 'called_off'
    AND "failure_reason" = 'called off: no card at the terminal in time'
    AND "refund" IS NULL;
