-- Outbox claims are leases, not row locks: a publisher claims rows in a short transaction,
-- publishes outside it, then marks them published only while its claim token still holds. A
-- publisher that dies leaves rows claimed until claimed_until, after which another takes them.
ALTER TABLE outbox ADD COLUMN claimed_until timestamptz, ADD COLUMN claim_token uuid;

-- The retention job deletes old rows in small batches: these find them without a scan.
CREATE INDEX outbox_published ON outbox (published_at) WHERE published_at IS NOT NULL;
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
