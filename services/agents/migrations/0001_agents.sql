-- Agents and their members (spec 3, Agent). Children (swarm members, coding agents) point at
-- their parent and carry the top of their chain, whose owner and members give their access (AGT-326).
CREATE TABLE agents (
  id uuid PRIMARY KEY,
  slug text NOT NULL,
  name text,
  instructions text,
  project_id uuid,
  practice text,
  conversation_id text,
  owner_fid text NOT NULL,
  created_by text NOT NULL,
  email text NOT NULL,
  last_heartbeat_at timestamptz,
  lifetime text NOT NULL DEFAULT 'persistent' CHECK (lifetime IN ('persistent', 'ephemeral')),
  run_type text NOT NULL DEFAULT 'always_on' CHECK (run_type IN ('always_on', 'on_demand')),
  -- What kind of child an agent is: none for a top-level agent.
  child_kind text CHECK (child_kind IN ('swarm', 'coding')),
  parent_id uuid REFERENCES agents (id) ON DELETE CASCADE,
  top_id uuid NOT NULL,
  swarm_id uuid,
  repository text,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'expired', 'archive')),
  desired_state text NOT NULL DEFAULT 'stopped' CHECK (desired_state IN ('stopped', 'running', 'completed')),
  generation integer NOT NULL DEFAULT 1,
  -- What the reconciler last made the world hold (null: nothing applied yet) and its last error.
  observed_generation integer,
  observed_state text,
  runner_error text,
  reconciled_at timestamptz,
  model text NOT NULL DEFAULT 'auto',
  memory_model text NOT NULL DEFAULT 'auto',
  harness_id text NOT NULL,
  max_turns integer NOT NULL DEFAULT 10 CHECK (max_turns >= 10),
  skills jsonb NOT NULL DEFAULT '[]',
  tools jsonb NOT NULL DEFAULT '[]',
  contributes_to_knowledge boolean NOT NULL DEFAULT false,
  workspace_conversation_id text,
  call_secret_hash text,
  ttl_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX agents_slug ON agents (slug);
CREATE INDEX agents_top ON agents (top_id);
CREATE INDEX agents_parent ON agents (parent_id, created_at DESC);
CREATE INDEX agents_owner ON agents (owner_fid);
CREATE INDEX agents_swarm ON agents (swarm_id) WHERE swarm_id IS NOT NULL;
-- What the reconciler has to look at: anything whose world may differ from its record.
CREATE INDEX agents_unreconciled ON agents (id)
  WHERE observed_generation IS DISTINCT FROM generation OR observed_state IS DISTINCT FROM desired_state;

-- Editors and viewers of a top-level agent, in added order; the owner is agents.owner_fid.
CREATE TABLE agent_members (
  agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  principal_fid text NOT NULL,
  role text NOT NULL CHECK (role IN ('editor', 'viewer')),
  seq bigserial NOT NULL,
  added_at timestamptz NOT NULL,
  PRIMARY KEY (agent_id, principal_fid)
);
CREATE INDEX agent_members_principal ON agent_members (principal_fid, agent_id);
