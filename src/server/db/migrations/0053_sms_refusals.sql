-- Whose fault an SMS refused for good was (jobs/sms-job.ts): a number the provider will never
-- reach is the payer's to change (422 PHONE_NUMBER_UNREACHABLE), any other refusal ours (502
-- CODE_NOT_SENT).
ALTER TABLE "sms_queue" ADD COLUMN "refusal" text;
