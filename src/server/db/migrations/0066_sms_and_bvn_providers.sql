-- Which provider took each SMS, and which BVN registry opened each verification: SMS_PROVIDERS
-- and BVN_REGISTRIES are lists, and a message or a lookup may go to the next one when the first
-- fails (docs/providers/termii.md "What is retried", docs/identity.md "The BVN").
--
-- `sms_queue.provider`: the provider that took the message, for the operator; null while it waits
-- or when none took it. Messages sent before had only the one provider of SMS_PROVIDER, which the
-- database does not record: they keep null.
--
-- `bvn_codes.registry`: the registry whose session the verification holds; its code is sent and
-- checked there, never at another. Null until a registry opened the session. A verification
-- opened before (sessions live minutes) was opened by the first of the list, which the service
-- still asks for one without a name.
ALTER TABLE "sms_queue" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "bvn_codes" ADD COLUMN "registry" text;
