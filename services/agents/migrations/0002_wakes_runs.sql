-- Wakes waiting for an agent's harness (spec 3: POST .../wake, .../run; GET .../inbox) and the
-- runs it records (POST/GET .../runs). Drained items are kept: a run names the wake it answered,
-- and a keyed wake already handed out still answers its retries instead of queueing again.
CREATE TABLE agent_inbox (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  -- Hand-out order: the oldest waiting wake first.
  seq bigserial NOT NULL,
  reason text NOT NULL CHECK (reason IN ('comms', 'dream', 'harvest', 'manual')),
  ref text,
  -- What makes two wakes the same one: 'key:<Idempotency-Key>' when the caller sent one, else
  -- 'ref:<reason>:<ref>'; null for a wake with neither, which is the same as the one of its
  -- reason still waiting (agent_inbox_waiting_reason).
  wake_key text,
  queued_by text NOT NULL,
  queued_at timestamptz NOT NULL,
  drained_at timestamptz
);
CREATE UNIQUE INDEX agent_inbox_key ON agent_inbox (agent_id, wake_key);
CREATE UNIQUE INDEX agent_inbox_waiting_reason ON agent_inbox (agent_id, reason)
  WHERE wake_key IS NULL AND drained_at IS NULL;
-- The drain's claim: the agent's waiting wakes in order.
CREATE INDEX agent_inbox_waiting ON agent_inbox (agent_id, seq) WHERE drained_at IS NULL;

-- Completed wakes as the harness records them, and on-demand calls (reason on_demand).
CREATE TABLE agent_runs (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  inbox_item_id uuid REFERENCES agent_inbox (id) ON DELETE SET NULL,
  reason text NOT NULL CHECK (reason IN ('comms', 'dream', 'harvest', 'manual', 'on_demand')),
  started_at timestamptz NOT NULL,
  finished_at timestamptz NOT NULL CHECK (finished_at >= started_at),
  outcome text NOT NULL CHECK (outcome IN ('completed', 'failed', 'max_turns')),
  turns integer NOT NULL CHECK (turns >= 0),
  model text,
  summary text,
  recorded_by text NOT NULL,
  created_at timestamptz NOT NULL
);
-- One run per wake: a harness retrying with another key cannot record a wake twice.
CREATE UNIQUE INDEX agent_runs_inbox_item ON agent_runs (inbox_item_id) WHERE inbox_item_id IS NOT NULL;
-- The history, newest first.
CREATE INDEX agent_runs_history ON agent_runs (agent_id, started_at DESC, id DESC);
