-- A collection's debit the bank took as an instruction and has not made yet (Remita's 'awaiting
-- debit'): which account, our reference, the provider's reference that a cancellation names, and
-- since when (services/payments/future-collections.ts). Null when no debit waits at a bank.
ALTER TABLE "future_payment_collections" ADD COLUMN "pending_debit" jsonb;
