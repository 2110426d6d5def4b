-- Internal jobs (issue 19, spec 2 "Internal job routes"): what the scheduler's jobs read and write.

-- expire-sessions: an agent session with no heartbeat for a while is expired (not ended by anyone).
ALTER TABLE agent_sessions DROP CONSTRAINT IF EXISTS agent_sessions_status_check;
ALTER TABLE agent_sessions ADD CONSTRAINT agent_sessions_status_check
  CHECK (status IN ('active', 'ended', 'expired'));
CREATE INDEX agent_sessions_live ON agent_sessions (last_heartbeat_at) WHERE status = 'active';

-- Break-glass: a time-boxed platform-admin membership. While live (not expired, before
-- expires_at) the person reads as a platform admin; expire-grants marks the lapsed ones expired.
CREATE TABLE break_glass_grants (
  id uuid PRIMARY KEY,
  person text NOT NULL,
  granted_by text NOT NULL,
  reason text NOT NULL,
  granted_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL CHECK (expires_at > granted_at),
  expired_at timestamptz
);
CREATE INDEX break_glass_grants_live ON break_glass_grants (person, expires_at) WHERE expired_at IS NULL;

-- One row per notice a job sent, under a key naming the notice and its day (or window): two runs
-- racing on the same notice insert one row, and only the winner writes the notification.
CREATE TABLE job_notices (
  notice_key text PRIMARY KEY,
  job text NOT NULL,
  recipient text NOT NULL,
  subject_id uuid,
  sent_on date NOT NULL,
  created_at timestamptz NOT NULL
);
-- A count notice (unblock-reminders' daily count) carries its number; other notices none.
ALTER TABLE notifications ADD COLUMN count integer;

-- goal-checkin-chat: one row per goal and window (the check-in state and its due day), written
-- only after the message went out, so a failed send leaves no window and the next run retries.
CREATE TABLE goal_checkin_messages (
  goal_id uuid NOT NULL REFERENCES goals (id),
  state text NOT NULL CHECK (state IN ('due', 'overdue')),
  checkin_day date NOT NULL,
  project_id uuid NOT NULL REFERENCES projects (id),
  lead text NOT NULL,
  chat_user text NOT NULL,
  chat_channel text NOT NULL,
  chat_ts text NOT NULL,
  sent_at timestamptz NOT NULL,
  PRIMARY KEY (goal_id, state, checkin_day)
);

-- person-context-refresh: the people roster and what the workspace knows of each person.
CREATE TABLE person_contexts (
  person_id text PRIMARY KEY,
  email text,
  name text,
  -- The person's choice: off, nothing about them is refreshed.
  personalization boolean NOT NULL DEFAULT true,
  first_seen_at timestamptz NOT NULL,
  refreshed_at timestamptz,
  nightly_at timestamptz
);
-- The sources of a person's context and the version last read (the source's updated_at).
CREATE TABLE person_context_sources (
  person_id text NOT NULL REFERENCES person_contexts (person_id),
  source_id text NOT NULL,
  kind text NOT NULL,
  updated_at timestamptz NOT NULL,
  read_at timestamptz NOT NULL,
  PRIMARY KEY (person_id, source_id)
);
-- Assignments the sources show (a person on a project in a role); a nightly run retires those
-- its reread of the 90-day window no longer shows.
CREATE TABLE person_assignments (
  person_id text NOT NULL REFERENCES person_contexts (person_id),
  assignment_id text NOT NULL,
  project_id text NOT NULL,
  role text NOT NULL,
  last_seen_at timestamptz NOT NULL,
  retired_at timestamptz,
  PRIMARY KEY (person_id, assignment_id)
);

-- flow-tools-sync: every repository of the configured organization, as last read.
CREATE TABLE flow_tool_repositories (
  full_name text PRIMARY KEY,
  repo_id bigint NOT NULL,
  private boolean NOT NULL,
  archived boolean NOT NULL,
  default_branch text,
  updated_at timestamptz,
  synced_at timestamptz NOT NULL
);

-- meeting-summaries: one summary per meeting or recording (helper A's evidence, 0011), written
-- through the broker; a failed attempt is counted and the next run tries again.
CREATE TABLE evidence_summaries (
  evidence_id uuid PRIMARY KEY REFERENCES evidence (id) ON DELETE CASCADE,
  summary text,
  written_at timestamptz,
  failed_attempts integer NOT NULL DEFAULT 0,
  last_failure text,
  last_attempt_at timestamptz NOT NULL
);
