-- Construction core (spec 3): development projects and their seven stages, baselines, approvals
-- with their reviewers, the document register with revisions, and variations. The tables several
-- areas read are here; each area's own tables come in its own migration.

CREATE TABLE development_projects (
  id uuid PRIMARY KEY,
  code text NOT NULL,
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('master_plan', 'ground_up', 'conversion', 'capital_improvement')),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'on_hold', 'cancelled', 'completed')),
  stage text NOT NULL DEFAULT 'initiation'
    CHECK (stage IN ('initiation', 'feasibility', 'design', 'permitting', 'award', 'construction', 'closeout')),
  owner_fid text,
  region text,
  description text NOT NULL DEFAULT '',
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
-- Codes are unique ignoring case: PRJ-1 and prj-1 name one project (409 code_taken).
CREATE UNIQUE INDEX development_projects_code ON development_projects (lower(code));

-- The seven stages, made with the project. Actual dates come only from advancing.
CREATE TABLE project_stages (
  project_id uuid NOT NULL REFERENCES development_projects (id),
  stage text NOT NULL
    CHECK (stage IN ('initiation', 'feasibility', 'design', 'permitting', 'award', 'construction', 'closeout')),
  seq smallint NOT NULL CHECK (seq BETWEEN 1 AND 7),
  planned_start date,
  planned_finish date,
  forecast_start date,
  forecast_finish date,
  actual_start date,
  actual_finish date,
  PRIMARY KEY (project_id, stage),
  UNIQUE (project_id, seq)
);

-- Baselines are immutable: the award writes the first, each incorporated variation the next.
CREATE TABLE baselines (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES development_projects (id),
  seq integer NOT NULL CHECK (seq >= 1),
  kind text NOT NULL CHECK (kind IN ('award', 'variation')),
  variation_id uuid,
  -- The contract sum in minor units and the contractual completion date of this baseline.
  amount_minor bigint NOT NULL,
  finish_date date NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (project_id, seq)
);

CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% rows are append-only: % refused', TG_TABLE_NAME, TG_OP USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER baselines_immutable BEFORE UPDATE OR DELETE ON baselines
  FOR EACH ROW EXECUTE FUNCTION refuse_change();

-- Approvals of a stage gate (stage set), a decision, a budget or a variation (subject_id set).
CREATE TABLE approvals (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES development_projects (id),
  subject_type text NOT NULL CHECK (subject_type IN ('stage_gate', 'decision', 'budget', 'variation')),
  subject_id uuid,
  stage text CHECK (stage IN ('initiation', 'feasibility', 'design', 'permitting', 'award', 'construction', 'closeout')),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  title text NOT NULL DEFAULT '',
  requested_by text NOT NULL,
  created_at timestamptz NOT NULL,
  decided_at timestamptz
);
CREATE INDEX approvals_project ON approvals (project_id, subject_type, stage, status);
CREATE INDEX approvals_subject ON approvals (subject_id) WHERE subject_id IS NOT NULL;

-- Reviewers are named by lowercased email; the answer is the reviewer's own.
CREATE TABLE approval_reviewers (
  approval_id uuid NOT NULL REFERENCES approvals (id),
  email text NOT NULL CHECK (email = lower(email)),
  required boolean NOT NULL,
  response text CHECK (response IN ('approved', 'rejected')),
  note text,
  responded_by text,
  responded_at timestamptz,
  PRIMARY KEY (approval_id, email)
);

-- The document register: one row per controlled document, its revisions below.
CREATE TABLE documents (
  id uuid PRIMARY KEY,
  code text NOT NULL,
  title text NOT NULL,
  doc_type text NOT NULL,
  discipline text NOT NULL,
  owner_fid text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX documents_code ON documents (lower(code));

-- A revision starts lettered (internal: A, B, ...) and, once published, carries the next number.
CREATE TABLE document_revisions (
  id uuid PRIMARY KEY,
  document_id uuid NOT NULL REFERENCES documents (id),
  letter text NOT NULL,
  number integer,
  state text NOT NULL
    CHECK (state IN ('draft', 'internal_review', 'reviewed', 'pending_approval', 'approved', 'rejected', 'published')),
  -- The published number current when this revision started: publishing after another
  -- publication is revision_out_of_date.
  based_on_number integer,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  published_at timestamptz,
  UNIQUE (document_id, letter)
);
CREATE UNIQUE INDEX document_revisions_number ON document_revisions (document_id, number) WHERE number IS NOT NULL;

-- Variations: drafted, priced, submitted, approved or rejected, incorporated into a new baseline.
CREATE TABLE variations (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES development_projects (id),
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'drafted'
    CHECK (status IN ('drafted', 'priced', 'submitted', 'approved', 'rejected', 'incorporated')),
  cost_change_minor bigint,
  days integer,
  approval_id uuid REFERENCES approvals (id),
  source_revision_id uuid REFERENCES document_revisions (id),
  baseline_id uuid REFERENCES baselines (id),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX variations_project ON variations (project_id, status);
