-- The books-start correction event type.
ALTER TABLE calendar_changes DROP CONSTRAINT calendar_changes_event_type;
ALTER TABLE calendar_changes ADD CONSTRAINT calendar_changes_event_type
  CHECK (event_type IN ('calendar_configured', 'timezone_changed', 'books_start_changed'));
