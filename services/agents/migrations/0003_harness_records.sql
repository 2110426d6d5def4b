-- What the harness records about an agent (spec 3, Agents endpoints from /logs to /v1/observer/sources):
-- log lines, memories, transcript reviews, the research checkpoint and the sources its actions cited.

-- Log lines and heartbeats. A bigint identity keeps the row small and the insert cheap: a log POST is
-- the hottest write of the service (bench/logs.ts).
CREATE TABLE agent_logs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('started', 'heartbeat', 'wake', 'error', 'skill', 'info', 'warn')),
  message text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX agent_logs_agent ON agent_logs (agent_id, created_at DESC, id DESC);

-- Memories: core ones are pinned into every thoughts block, archive ones are recalled.
CREATE TABLE agent_memories (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  content text NOT NULL,
  tier text NOT NULL CHECK (tier IN ('core', 'archive')),
  -- agent: the harness wrote it; person: someone with the editor role did.
  source text NOT NULL CHECK (source IN ('agent', 'person')),
  created_by text NOT NULL,
  recall_count integer NOT NULL DEFAULT 0,
  last_recalled_at timestamptz,
  -- How many memories a consolidation merged into this one (0: written as it is).
  merged_count integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX agent_memories_agent ON agent_memories (agent_id, created_at DESC, id DESC);

-- Reviews of meeting transcripts: one per (record, source version, sequence) of an agent.
CREATE TABLE transcript_reviews (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  record_id text NOT NULL,
  source_version text NOT NULL,
  sequence integer NOT NULL CHECK (sequence >= 0),
  meeting_date date NOT NULL,
  summary text,
  details jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  UNIQUE (agent_id, record_id, source_version, sequence)
);
CREATE INDEX transcript_reviews_meetings ON transcript_reviews (agent_id, meeting_date DESC, id DESC);

-- The research checkpoint: one per agent; version counts the writes (0: none yet, no row).
CREATE TABLE research_checkpoints (
  agent_id uuid PRIMARY KEY REFERENCES agents (id) ON DELETE CASCADE,
  scan_id text NOT NULL,
  position bigint NOT NULL CHECK (position >= 0),
  version integer NOT NULL CHECK (version >= 1),
  updated_at timestamptz NOT NULL
);

-- Outward actions (mail, text, announcement, commit, pull request) and the ids each cited.
CREATE TABLE agent_actions (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  action text NOT NULL
    CHECK (action IN ('send_email', 'send_sms', 'send_announcement', 'git_commit', 'open_pull_request')),
  run_id uuid,
  created_at timestamptz NOT NULL
);
CREATE INDEX agent_actions_agent ON agent_actions (agent_id, created_at DESC, id DESC);

CREATE TABLE action_sources (
  action_id uuid NOT NULL REFERENCES agent_actions (id) ON DELETE CASCADE,
  source_id uuid NOT NULL,
  -- evidence or insight as the harness named it; message: a UUID found in the message text.
  kind text NOT NULL CHECK (kind IN ('evidence', 'insight', 'message')),
  -- Whether the agent read this id in the same run (it was among the run's read ids).
  read_in_run boolean NOT NULL,
  PRIMARY KEY (action_id, source_id)
);
CREATE INDEX action_sources_source ON action_sources (source_id, action_id);
