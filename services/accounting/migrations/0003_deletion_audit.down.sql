-- Refuses to roll back while deletion audit records exist.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM deleted_entries) THEN
    RAISE EXCEPTION 'refusing to roll back deletion audit records: records exist';
  END IF;
END $$;
DROP TABLE deleted_entries;
