-- The kit's tables, in every service's schema.

-- Idempotency records: written in the command's own transaction, so a stored response
-- exists exactly when the command's effects do.
CREATE TABLE idempotency_keys (
  key text PRIMARY KEY,
  request_hash text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  principal_id text NOT NULL,
  status integer NOT NULL,
  response jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Outbox: events written with the change that caused them; the publisher drains it.
CREATE TABLE outbox (
  id bigserial PRIMARY KEY,
  event_id uuid NOT NULL UNIQUE,
  subject text NOT NULL,
  event_type text NOT NULL,
  restricted boolean NOT NULL DEFAULT false,
  payload jsonb NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  last_error text
);
CREATE INDEX outbox_unpublished ON outbox (id) WHERE published_at IS NULL;
