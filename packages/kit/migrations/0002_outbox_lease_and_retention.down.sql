DROP INDEX idempotency_keys_created;
DROP INDEX outbox_published;
ALTER TABLE outbox DROP COLUMN claim_token, DROP COLUMN claimed_until;
