-- A scheduled collection refused for insufficient funds is tried again in later rounds (docs/payments.md).
ALTER TABLE "future_payment_collections" ADD COLUMN "rounds" integer DEFAULT 0 NOT NULL;