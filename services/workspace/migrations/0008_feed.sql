-- Issue 16: decisions, data sources, positions in the activity feed, visits, cached digests and
-- context packs.

-- Decisions: proposed by editors, approved by owners (docs/decisions.md, workspace).
CREATE TABLE decisions (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id),
  title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 200),
  detail text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'proposed' CHECK (status IN ('proposed', 'approved')),
  proposed_by text NOT NULL,
  created_at timestamptz NOT NULL,
  approved_by text,
  approved_at timestamptz,
  CHECK ((status = 'approved') = (approved_at IS NOT NULL AND approved_by IS NOT NULL))
);
CREATE INDEX decisions_project ON decisions (project_id, created_at DESC, id DESC);

-- Data sources connected to a project: a name, a kind and a reference (a URL or an outside id).
CREATE TABLE data_sources (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id),
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  kind text NOT NULL CHECK (kind IN ('document', 'folder', 'repository', 'channel', 'mailbox', 'spreadsheet', 'database', 'website')),
  reference text NOT NULL CHECK (char_length(reference) BETWEEN 1 AND 2000),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (project_id, kind, reference)
);
CREATE INDEX data_sources_project ON data_sources (project_id, created_at, id);

-- The feed's position: each activity row takes its project's next number in the command's
-- transaction (activity_heads holds the last one), so positions follow commit order per project.
ALTER TABLE activity ADD COLUMN position bigint;
UPDATE activity SET position = numbered.n
FROM (SELECT id, row_number() OVER (PARTITION BY project_id ORDER BY created_at, id) AS n FROM activity) AS numbered
WHERE activity.id = numbered.id;
ALTER TABLE activity ALTER COLUMN position SET NOT NULL;
CREATE UNIQUE INDEX activity_project_position ON activity (project_id, position);

CREATE TABLE activity_heads (
  project_id uuid PRIMARY KEY REFERENCES projects (id),
  position bigint NOT NULL
);
INSERT INTO activity_heads (project_id, position)
SELECT project_id, max(position) FROM activity GROUP BY project_id;

-- Each person's latest visit of a project: the feed position then. The digest counts from it.
CREATE TABLE project_visits (
  project_id uuid NOT NULL REFERENCES projects (id),
  principal text NOT NULL,
  position bigint NOT NULL,
  visited_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, principal)
);

-- The digest of a person's latest read, cached against (since_position, position): a read at the
-- same positions answers it as stored. line is model-written off the read path (null until then).
CREATE TABLE digests (
  project_id uuid NOT NULL REFERENCES projects (id),
  principal text NOT NULL,
  since_position bigint NOT NULL,
  position bigint NOT NULL,
  since timestamptz,
  counts jsonb NOT NULL,
  total integer NOT NULL,
  computed_at timestamptz NOT NULL,
  line text,
  line_failed boolean NOT NULL DEFAULT false,
  PRIMARY KEY (project_id, principal)
);
CREATE INDEX digests_line_pending ON digests (computed_at) WHERE line IS NULL AND NOT line_failed AND total > 0;

-- The context pack of a project as last built: what it held, the positions it was built at (the
-- feed's and the change number's; either moving on makes it stale) and the model's summary.
CREATE TABLE context_packs (
  project_id uuid PRIMARY KEY REFERENCES projects (id),
  position bigint NOT NULL,
  change_seq bigint NOT NULL,
  content jsonb NOT NULL,
  summary text,
  degraded boolean NOT NULL,
  built_at timestamptz NOT NULL
);
