ALTER TABLE outbox DROP COLUMN republished;
