-- Customer presentations (spec 2, "Projects and tasks"; rules WS-281..WS-287; issue 16): an
-- outline and its sources on a project, rendered into numbered revisions whose file (a
-- self-contained HTML slide deck) is stored in the documents service.

-- One row per presentation. latest_revision is the highest revision number written (0 before the
-- first build); shared_revision the revision pinned by the latest share (NULL until shared).
CREATE TABLE presentations (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id),
  title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 200),
  -- [{title, notes}]: what each slide is about, in order.
  outline jsonb NOT NULL CHECK (jsonb_typeof(outline) = 'array'),
  -- [{title, reference}]: what the slides draw on.
  sources jsonb NOT NULL CHECK (jsonb_typeof(sources) = 'array'),
  latest_revision integer NOT NULL DEFAULT 0 CHECK (latest_revision >= 0),
  shared_revision integer CHECK (shared_revision >= 1 AND shared_revision <= latest_revision),
  shared_by text,
  shared_at timestamptz,
  -- The communications service's id of the share that pinned shared_revision.
  share_id text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK ((shared_revision IS NULL) = (shared_at IS NULL))
);
CREATE INDEX presentations_project ON presentations (project_id, created_at DESC, id DESC);

-- One row per revision, 1, 2, 3… per presentation (taken under the presentation's row lock). A
-- build writes the slides' text through the model broker; an edit takes them from the editor.
-- A render that failed keeps its reason; resume renders the same revision again.
CREATE TABLE presentation_revisions (
  presentation_id uuid NOT NULL REFERENCES presentations (id),
  revision integer NOT NULL CHECK (revision >= 1),
  origin text NOT NULL CHECK (origin IN ('build', 'edit')),
  status text NOT NULL CHECK (status IN ('rendered', 'failed')),
  -- [{title, body}]; NULL when a build failed before the model wrote them.
  slides jsonb CHECK (slides IS NULL OR jsonb_typeof(slides) = 'array'),
  failure_reason text,
  attempts integer NOT NULL DEFAULT 1 CHECK (attempts >= 1),
  document_id uuid,
  content_type text,
  size_bytes bigint CHECK (size_bytes >= 0),
  sha256 text CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  rendered_at timestamptz,
  PRIMARY KEY (presentation_id, revision),
  CHECK ((status = 'rendered') = (document_id IS NOT NULL)),
  CHECK ((status = 'failed') = (failure_reason IS NOT NULL))
);
