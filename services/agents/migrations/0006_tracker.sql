-- The tracker tools (spec 3: /v1/agents/{id}/tracker/*). One recommendation per agent and issue:
-- the unique key decides between concurrent calls (the loser waits on it, then answers the winner's
-- row and posts nothing: AGT-147).
CREATE TABLE tracker_recommendations (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  issue_key text NOT NULL,
  text text NOT NULL,
  -- The tracker's id of the comment that carried it.
  comment_id text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (agent_id, issue_key)
);

-- A claim: one coding attempt on an issue, its ephemeral coding agent (started through the core's
-- coding-agents command), where it works, and the pull request its report commented (AGT-148..151).
CREATE TABLE tracker_claims (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  issue_key text NOT NULL,
  repository text NOT NULL CHECK (repository IN ('deepsky', 'platform')),
  branch text NOT NULL,
  path_prefix text,
  coding_agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  pull_request_url text,
  comment_id text,
  reported_at timestamptz,
  created_at timestamptz NOT NULL,
  CHECK ((reported_at IS NULL) = (pull_request_url IS NULL))
);
CREATE INDEX tracker_claims_agent ON tracker_claims (agent_id, issue_key, created_at DESC);
CREATE INDEX tracker_claims_coding_agent ON tracker_claims (coding_agent_id);
