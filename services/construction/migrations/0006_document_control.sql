-- Document control (spec 3, "Document control"): the trail of every action and publication on a
-- document, its links to projects, stages, tasks, milestones and firms, the impact recorded at
-- each publication, and the files attached to tasks and document revisions (kept in the
-- documents service; here only the link to its document id).

-- Every action and publication, who and when: registered, updated, revision_started, the five
-- revision actions, published, linked, unlinked. Append-only.
CREATE TABLE document_trail (
  id uuid PRIMARY KEY,
  -- The order entries were written in (several are written at one instant of a command).
  seq bigint GENERATED ALWAYS AS IDENTITY,
  document_id uuid NOT NULL REFERENCES documents (id),
  revision_id uuid REFERENCES document_revisions (id),
  action text NOT NULL CHECK (action IN ('registered', 'updated', 'revision_started', 'prepared', 'reviewed',
    'submitted_for_approval', 'approved', 'rejected', 'published', 'linked', 'unlinked')),
  from_state text,
  to_state text,
  note text,
  actor_fid text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX document_trail_document ON document_trail (document_id, seq);
CREATE TRIGGER document_trail_append_only BEFORE UPDATE OR DELETE ON document_trail
  FOR EACH ROW EXECUTE FUNCTION refuse_change();

-- A document's links. project_id is the project the target belongs to (the project itself, the
-- stage's project, the task's or the milestone's project; null for a firm): the register's
-- project_id filter reads it. A stage link names its project in target_id and the stage in stage.
CREATE TABLE document_links (
  id uuid PRIMARY KEY,
  document_id uuid NOT NULL REFERENCES documents (id),
  target_type text NOT NULL CHECK (target_type IN ('project', 'stage', 'task', 'milestone', 'firm')),
  target_id text NOT NULL,
  stage text CHECK (stage IN ('initiation', 'feasibility', 'design', 'permitting', 'award', 'construction', 'closeout')),
  project_id uuid REFERENCES development_projects (id),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  CHECK ((target_type = 'stage') = (stage IS NOT NULL))
);
-- One link per target: linking the same target again answers the existing link.
CREATE UNIQUE INDEX document_links_target ON document_links (document_id, target_type, target_id, coalesce(stage, ''));
CREATE INDEX document_links_project ON document_links (project_id, document_id) WHERE project_id IS NOT NULL;

-- The impact recorded at each publication (summary, cost and days when given) and the variation
-- drafted with it, if any.
CREATE TABLE document_impacts (
  id uuid PRIMARY KEY,
  document_id uuid NOT NULL REFERENCES documents (id),
  revision_id uuid NOT NULL UNIQUE REFERENCES document_revisions (id),
  number integer NOT NULL,
  summary text NOT NULL DEFAULT '',
  cost_minor bigint,
  days integer,
  variation_id uuid REFERENCES variations (id),
  recorded_by text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX document_impacts_document ON document_impacts (document_id, number);

-- Files of a task or a document revision: the bytes live in the documents service (document_id).
-- record_id is not a foreign key: tasks are another area's table.
CREATE TABLE attachments (
  id uuid PRIMARY KEY,
  record_type text NOT NULL CHECK (record_type IN ('task', 'document_revision')),
  record_id uuid NOT NULL,
  document_id text NOT NULL,
  blob_name text NOT NULL,
  filename text NOT NULL,
  content_type text NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX attachments_record ON attachments (record_type, record_id, created_at, id);
