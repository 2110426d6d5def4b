-- Refuses to roll back while payment journal links exist.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM journal_entries WHERE payment_id IS NOT NULL) THEN
    RAISE EXCEPTION 'refusing to roll back payment journal links: linked entries exist';
  END IF;
END $$;
DROP INDEX journal_entries_payment;
ALTER TABLE journal_entries DROP COLUMN payment_id;
