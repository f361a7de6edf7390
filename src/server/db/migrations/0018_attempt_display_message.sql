-- The bank's words to the payer while a card waits for its OTP or 3-D Secure check, so a page opened again shows the same screen.
ALTER TABLE "payment_attempts" ADD COLUMN "display_message" text;
