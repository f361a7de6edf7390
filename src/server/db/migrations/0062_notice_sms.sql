-- The SMS that told the payer of a collection (services/payments/debit-notices.ts): a collection
-- is debited only once that SMS was sent, the whole notice's lead before; one whose SMS could not
-- be sent (nobody to tell, or the provider refused it for good) fails with the reason
-- 'payer_not_notified', never debited without a notice.
--
-- Existing collections: the id is the outbox's (jobs/engine.ts jobIdFor: a UUID made of the
-- SHA-256 of 'debit-notice:{collectionId}:{round}'), so a pending collection noticed before is
-- given the id of its notice's queued SMS where one was queued. One noticed with no SMS queued
-- (nobody was told) is made unnoticed again: the next run tells the payer, or fails it.
ALTER TABLE "future_payment_collections" ADD COLUMN "notice_sms_id" uuid;--> statement-breakpoint
UPDATE "future_payment_collections" AS c SET "notice_sms_id" = q."id"
FROM "sms_queue" AS q
WHERE c."status" = 'pending' AND c."notified_at" IS NOT NULL
	AND q."id" = (
		SELECT (substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-8' || substr(h, 14, 3) || '-'
			|| to_hex((('x' || substr(h, 17, 1))::bit(4)::int & 3) | 8) || substr(h, 18, 3) || '-'
			|| substr(h, 21, 12))::uuid
		FROM (SELECT encode(sha256(convert_to('debit-notice:' || c."id" || ':' || c."rounds", 'UTF8')), 'hex') AS h) AS s
	);--> statement-breakpoint
UPDATE "future_payment_collections" SET "notified_at" = NULL
WHERE "status" = 'pending' AND "notified_at" IS NOT NULL AND "notice_sms_id" IS NULL;
