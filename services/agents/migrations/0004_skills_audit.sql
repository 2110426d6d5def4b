-- Skills and their versions (spec 3, Skills). A version's SKILL.md is kept here as text: sent as
-- markdown, or alongside an archive uploaded through the documents service (document_id,
-- blob_name). An archive sent without it has no SKILL.md here (markdown null): its body reads
-- as empty markdown with a note (AGT-246).
CREATE TABLE skills (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  category text NOT NULL DEFAULT '',
  owner_fid text NOT NULL,
  -- The owner's email when the creator was signed in as a person: q matches it (AGT-237).
  owner_email text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX skills_created ON skills (created_at DESC, id DESC);

CREATE TABLE skill_versions (
  id uuid PRIMARY KEY,
  skill_id uuid NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
  -- 1 for the first version; the highest is the latest (what a null version_id on an agent means: AGT-043).
  number integer NOT NULL CHECK (number >= 1),
  source text NOT NULL CHECK (source IN ('markdown', 'document', 'blob')),
  markdown text,
  document_id text,
  blob_name text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (skill_id, number)
);

-- The audit log: one sentence per agent or skill outbox event (AGT-344). Its id is the event's id,
-- so the publisher and the bus listener write the same row once (AGT-345); no command writes here
-- (AGT-346).
CREATE TABLE audit_log (
  id uuid PRIMARY KEY,
  event_type text NOT NULL,
  -- The event type's first part: agent, swarm or skill.
  domain text NOT NULL,
  actor text NOT NULL,
  -- kind:id of the subject (agent:<id>, skill:<id>, swarm:<id>); the filter matches it exactly.
  entity text NOT NULL,
  -- The top agent whose owner and members may read the row; null for skill rows, which everyone reads.
  agent_id uuid,
  sentence text NOT NULL,
  occurred_at timestamptz NOT NULL,
  recorded_at timestamptz NOT NULL,
  -- Who wrote it first: publisher or listener.
  recorded_by text NOT NULL CHECK (recorded_by IN ('publisher', 'listener'))
);
CREATE INDEX audit_log_occurred ON audit_log (occurred_at DESC, id DESC);
CREATE INDEX audit_log_agent ON audit_log (agent_id);
CREATE INDEX audit_log_entity ON audit_log (entity);
