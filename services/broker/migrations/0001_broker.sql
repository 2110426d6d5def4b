-- Model broker (spec 3): the roster of identities, usage (one row per call and a daily rollup)
-- and budgets. Routing (0002) and credentials with conversation links (0003) follow.

-- Everyone who called the broker or was posted to it: people, agent mailboxes and service
-- credentials' identities (<client_id>@service.broker). Agents and services name their creator.
CREATE TABLE identities (
  fid text PRIMARY KEY,
  email text NOT NULL UNIQUE,
  name text NOT NULL DEFAULT '',
  kind text NOT NULL CHECK (kind IN ('person', 'agent', 'service')),
  creator_fid text,
  creator_email text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX identities_creator ON identities (creator_fid);

-- One row per completed call, relayed or reported. Money is in micro-dollars. No credential
-- reference and no message text (the spec: usage records do not store which credential made a call).
CREATE TABLE usage_events (
  id uuid PRIMARY KEY,
  occurred_at timestamptz NOT NULL,
  day date NOT NULL,
  actor_fid text NOT NULL,
  provider text NOT NULL,
  provider_kind text NOT NULL,
  model text NOT NULL,
  -- Set only when routing substituted the model: what the caller asked for.
  requested_model text,
  request_kind text NOT NULL,
  input_tokens bigint NOT NULL DEFAULT 0 CHECK (input_tokens >= 0),
  output_tokens bigint NOT NULL DEFAULT 0 CHECK (output_tokens >= 0),
  cache_read_tokens bigint NOT NULL DEFAULT 0 CHECK (cache_read_tokens >= 0),
  cost_micros bigint NOT NULL DEFAULT 0,
  cache_savings_micros bigint NOT NULL DEFAULT 0,
  routing_savings_micros bigint NOT NULL DEFAULT 0,
  -- relay: written by the relay after the provider replied; report: POST /v1/usage.
  source text NOT NULL CHECK (source IN ('relay', 'report')),
  -- The provider's reply carried no usage: tokens were estimated from the text.
  estimated boolean NOT NULL DEFAULT false
);
CREATE INDEX usage_events_actor_time ON usage_events (actor_fid, occurred_at);
CREATE INDEX usage_events_time ON usage_events (occurred_at);

-- The rollup every usage read and the budget check sum over: one row per day, actor, provider
-- and model, kept in the same transaction as the usage_events rows it sums.
CREATE TABLE usage_daily (
  day date NOT NULL,
  actor_fid text NOT NULL,
  provider text NOT NULL,
  provider_kind text NOT NULL,
  model text NOT NULL,
  calls bigint NOT NULL DEFAULT 0,
  input_tokens bigint NOT NULL DEFAULT 0,
  output_tokens bigint NOT NULL DEFAULT 0,
  cache_read_tokens bigint NOT NULL DEFAULT 0,
  cost_micros bigint NOT NULL DEFAULT 0,
  cache_savings_micros bigint NOT NULL DEFAULT 0,
  routing_savings_micros bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (day, actor_fid, provider, model)
);
CREATE INDEX usage_daily_actor_day ON usage_daily (actor_fid, day);

-- The default monthly budget (one row) and per-identity overrides, in cents.
CREATE TABLE budget_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  default_limit_cents bigint NOT NULL CHECK (default_limit_cents >= 0),
  updated_by text,
  updated_at timestamptz
);
INSERT INTO budget_settings (id, default_limit_cents) VALUES (true, 10000);

CREATE TABLE budget_overrides (
  actor_fid text PRIMARY KEY,
  limit_cents bigint NOT NULL CHECK (limit_cents >= 0),
  set_by text NOT NULL,
  set_at timestamptz NOT NULL
);
