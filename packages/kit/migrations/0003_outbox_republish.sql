-- An operator's republish (the operations console) clears published_at and counts here. The bus
-- drops a message id it has seen (the in-process bus forever, JetStream within its duplicate
-- window), so a republished row goes out under its event id with this count appended: a retried
-- send of the same publish keeps its id (still deduplicated), a republish gets a new one.
ALTER TABLE outbox ADD COLUMN republished integer NOT NULL DEFAULT 0;
