-- Refuses to roll back while books-start events exist.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM calendar_changes WHERE event_type = 'books_start_changed') THEN
    RAISE EXCEPTION 'refusing to roll back the books-start event type: such events exist';
  END IF;
END $$;
ALTER TABLE calendar_changes DROP CONSTRAINT calendar_changes_event_type;
ALTER TABLE calendar_changes ADD CONSTRAINT calendar_changes_event_type
  CHECK (event_type IN ('calendar_configured', 'timezone_changed'));
