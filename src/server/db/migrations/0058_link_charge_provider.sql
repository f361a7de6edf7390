-- The provider that made a card link's test charge (services/linking/card-links.ts): its requery,
-- its 3-D Secure sweep, the give-back of money it took late and its notices go to that provider,
-- never to whichever provider takes cards after a change of CARD_PROVIDERS. Set when the link is
-- opened, from the port that makes the charge; null for a link with no test charge (another
-- route, or a card saved from a paid payment).
--
-- Existing links: which provider the deployment ran then is not in the database as such, so it
-- is read from what each link kept, in this order:
--   1. its charge's reference: the sandbox card network's read `sbx_ch_…`; any other reference is
--      Paystack's (the only other card provider before this migration);
--   2. no reference (the charge's answer was lost, or it was refused before it began): the
--      provider of the card payment attempt made nearest before the link (the deployment's card
--      provider at that time), else the nearest after it;
--   3. no card payment at all: 'sandbox' (the default of PAYMENT_PROVIDER).
ALTER TABLE "account_links" ADD COLUMN "charge_provider" text;--> statement-breakpoint
UPDATE "account_links" AS l SET "charge_provider" = COALESCE(
	CASE
		WHEN l."provider_reference" LIKE 'sbx\_ch\_%' THEN 'sandbox'
		WHEN l."provider_reference" IS NOT NULL THEN 'paystack'
	END,
	(SELECT a."provider" FROM "payment_attempts" a
		WHERE a."method" = 'card' AND a."created_at" <= l."created_at"
		ORDER BY a."created_at" DESC LIMIT 1),
	(SELECT a."provider" FROM "payment_attempts" a
		WHERE a."method" = 'card' AND a."created_at" > l."created_at"
		ORDER BY a."created_at" ASC LIMIT 1),
	'sandbox')
WHERE l."route" = 'card' AND l."test_amount" IS NOT NULL;
