-- A committed change to what the page reads of a consent (the consent, its payments and data
-- sharing, its merchant, its client's embedding origins) notifies channel consent_reads with the
-- consent's id, or '*' when a merchant or a client changed (every consent of theirs). The
-- consent-read cache drops what it names. Inserts do not notify: a consent's payments and data
-- sharing are written with it, in its creating transaction, before anyone can read it.
CREATE FUNCTION consent_reads_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'consents' THEN
    PERFORM pg_notify('consent_reads', OLD.id);
  ELSIF TG_TABLE_NAME IN ('payments', 'data_sharing_items') THEN
    PERFORM pg_notify('consent_reads', OLD.consent_id);
  ELSE
    PERFORM pg_notify('consent_reads', '*');
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER consents_read_notify AFTER UPDATE OR DELETE ON consents
  FOR EACH ROW EXECUTE FUNCTION consent_reads_notify();--> statement-breakpoint
CREATE TRIGGER payments_read_notify AFTER UPDATE OR DELETE ON payments
  FOR EACH ROW EXECUTE FUNCTION consent_reads_notify();--> statement-breakpoint
CREATE TRIGGER data_sharing_items_read_notify AFTER UPDATE OR DELETE ON data_sharing_items
  FOR EACH ROW EXECUTE FUNCTION consent_reads_notify();--> statement-breakpoint
CREATE TRIGGER merchants_read_notify AFTER UPDATE OR DELETE ON merchants
  FOR EACH ROW EXECUTE FUNCTION consent_reads_notify();--> statement-breakpoint
CREATE TRIGGER api_clients_read_notify AFTER UPDATE OF allowed_origins OR DELETE ON api_clients
  FOR EACH ROW EXECUTE FUNCTION consent_reads_notify();
