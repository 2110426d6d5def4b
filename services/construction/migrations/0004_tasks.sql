-- Tasks (spec 3, Tasks): work on a primary project that may count toward other projects (links),
-- wait for other tasks (dependencies), require controlled documents and carry notes.

CREATE TABLE tasks (
  id uuid PRIMARY KEY,
  -- The primary project, also held as the task's primary link: reads of a project's tasks stay cheap.
  project_id uuid NOT NULL REFERENCES development_projects (id),
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  owner_fid text,
  -- A package of the primary project; a package measured by tasks takes the mean of its tasks.
  package_id uuid REFERENCES packages (id),
  -- A firm of the vendors service (its id; that service holds the firm).
  vendor_id uuid,
  status text NOT NULL DEFAULT 'not_started' CHECK (status IN ('not_started', 'in_progress', 'blocked', 'done')),
  percent_complete integer NOT NULL DEFAULT 0 CHECK (percent_complete BETWEEN 0 AND 100),
  planned_start date,
  planned_finish date,
  forecast_finish date,
  -- Only while blocked.
  blocked_reason text CHECK (blocked_reason IS NULL OR status = 'blocked'),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK (status <> 'done' OR percent_complete = 100),
  CHECK (planned_start IS NULL OR planned_finish IS NULL OR planned_start <= planned_finish)
);
CREATE INDEX tasks_project ON tasks (project_id, created_at, id);
CREATE INDEX tasks_package ON tasks (package_id) WHERE package_id IS NOT NULL;
CREATE INDEX tasks_owner ON tasks (owner_fid) WHERE owner_fid IS NOT NULL;
CREATE INDEX tasks_vendor ON tasks (vendor_id) WHERE vendor_id IS NOT NULL;

-- The projects a task counts toward: its own (primary) and others with a share in percent.
CREATE TABLE task_links (
  task_id uuid NOT NULL REFERENCES tasks (id),
  project_id uuid NOT NULL REFERENCES development_projects (id),
  relationship_type text NOT NULL CHECK (relationship_type IN ('primary', 'affects', 'shared', 'deliverable_for')),
  share integer CHECK (share BETWEEN 0 AND 100),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (task_id, project_id)
);
-- One primary link per task.
CREATE UNIQUE INDEX task_links_one_primary ON task_links (task_id) WHERE relationship_type = 'primary';
CREATE INDEX task_links_project ON task_links (project_id, task_id);

-- task_id waits for depends_on_task_id (its prerequisite). The graph stays acyclic (commands check it).
CREATE TABLE task_dependencies (
  task_id uuid NOT NULL REFERENCES tasks (id),
  depends_on_task_id uuid NOT NULL REFERENCES tasks (id),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (task_id, depends_on_task_id),
  CHECK (task_id <> depends_on_task_id)
);
CREATE INDEX task_dependencies_dependents ON task_dependencies (depends_on_task_id, task_id);

CREATE TABLE task_notes (
  id uuid PRIMARY KEY,
  task_id uuid NOT NULL REFERENCES tasks (id),
  body text NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX task_notes_task ON task_notes (task_id, created_at, id);

-- Documents a task requires before it is done: any published revision, or the named one published.
CREATE TABLE task_documents (
  task_id uuid NOT NULL REFERENCES tasks (id),
  document_id uuid NOT NULL REFERENCES documents (id),
  revision_id uuid REFERENCES document_revisions (id),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (task_id, document_id)
);
